// @vitest-environment jsdom
import { act } from 'react';
import { afterEach, describe, expect, test, vi } from 'vitest';
import IslandErrorBoundary from '../../src/components/islands/IslandErrorBoundary.tsx';
import { reactRoot } from './support/react-root.ts';

const dom = reactRoot();

afterEach(() => {
  vi.restoreAllMocks();
});

describe('IslandErrorBoundary', () => {
  function Broken(): never {
    throw new Error('render failed');
  }

  test('shows the fallback heading when an island throws', () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    act(() =>
      dom.root.render(
        <IslandErrorBoundary>
          <Broken />
        </IslandErrorBoundary>,
      ),
    );
    expect(dom.container.querySelector('[role="alert"] h2')?.textContent).toBe(
      'Unexpected Application Error!',
    );
  });

  test('renders its children when nothing fails', () => {
    act(() =>
      dom.root.render(
        <IslandErrorBoundary>
          <p>Working island</p>
        </IslandErrorBoundary>,
      ),
    );
    expect(dom.container.textContent).toBe('Working island');
  });
});
