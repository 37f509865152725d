(function () {
  var root = document.documentElement;
  root.classList.add('js');
  if ('speechSynthesis' in window) root.classList.add('can-speak');
  try {
    var seen = sessionStorage.getItem('korvel:loader-shown');
    var calm = window.matchMedia('(prefers-reduced-motion: reduce)').matches;
    if (!seen && !calm) {
      root.classList.add('is-loading');
      sessionStorage.setItem('korvel:loader-shown', '1');
    }
  } catch {
    // Storage blocked: skip the loader rather than show it on every page.
  }
})();
