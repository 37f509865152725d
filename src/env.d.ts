/// <reference types="astro/client" />

declare module 'astro' {
  interface AstroClientDirectives {
    'client:interaction'?: boolean;
    'client:signin'?: boolean;
    'client:session'?: boolean;
  }
}

export {};
