import { Component, type ErrorInfo, type ReactNode } from 'react';
import './IslandErrorBoundary.css';

interface Props {
  children: ReactNode;
  /** @default 'Unexpected Application Error!' */
  heading?: string;
  text?: string;
}

interface State {
  failed: boolean;
}

/** Contains a failing island: the rest of the page keeps working and the visitor sees what happened. */
export default class IslandErrorBoundary extends Component<Props, State> {
  override state: State = { failed: false };

  static getDerivedStateFromError(): State {
    return { failed: true };
  }

  override componentDidCatch(error: Error, info: ErrorInfo) {
    console.error('Island failed to render', error, info.componentStack);
  }

  override render() {
    if (!this.state.failed) return this.props.children;
    return (
      <div className="island-error" role="alert">
        <h2>{this.props.heading ?? 'Unexpected Application Error!'}</h2>
        {this.props.text && <p>{this.props.text}</p>}
      </div>
    );
  }
}
