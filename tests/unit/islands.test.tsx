// @vitest-environment jsdom
import { act } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import IslandErrorBoundary from '../../src/components/islands/IslandErrorBoundary.tsx';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

let container: HTMLDivElement;
let root: Root;

beforeEach(() => {
  container = document.createElement('div');
  document.body.append(container);
  root = createRoot(container);
});

afterEach(() => {
  act(() => root.unmount());
  container.remove();
  vi.restoreAllMocks();
});

describe('IslandErrorBoundary', () => {
  function Broken(): never {
    throw new Error('render failed');
  }

  test('shows the fallback heading when an island throws', () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    act(() =>
      root.render(
        <IslandErrorBoundary>
          <Broken />
        </IslandErrorBoundary>,
      ),
    );
    expect(container.querySelector('[role="alert"] h2')?.textContent).toBe('Unexpected Application Error!');
  });

  test('renders its children when nothing fails', () => {
    act(() =>
      root.render(
        <IslandErrorBoundary>
          <p>Working island</p>
        </IslandErrorBoundary>,
      ),
    );
    expect(container.textContent).toBe('Working island');
  });
});
