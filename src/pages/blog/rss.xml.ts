import type { APIRoute } from 'astro';
import { feed } from '../_articles.ts';

export const GET: APIRoute = (context) => feed('blog', context);
