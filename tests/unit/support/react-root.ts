/**
 * A React root in jsdom for each test of a file: `reactRoot()` registers the hooks that mount a fresh container
 * before each test and unmount and remove it after; `.container` and `.root` are the current test's. React is
 * told it runs under `act`, so updates flush where the tests wrap them.
 */
import { act } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { afterEach, beforeEach } from 'vitest';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

export function reactRoot(): { readonly container: HTMLDivElement; readonly root: Root } {
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
  });
  return {
    get container() {
      return container;
    },
    get root() {
      return root;
    },
  };
}
