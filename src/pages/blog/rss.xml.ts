import type { APIRoute } from 'astro';
import { feed } from '../_feeds.ts';

export const GET: APIRoute = (context) => feed('blog', 'en', context);
