/// <reference types="astro/client" />

declare module 'astro' {
  interface AstroClientDirectives {
    'client:consent'?: boolean;
  }
}

export {};
