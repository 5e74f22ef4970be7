import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import express, { type NextFunction, type Request, type Response } from 'express';
import type { HearthConfig, S3Config } from '../config.js';

const originOf = (url: string): string | null => {
  try {
    return new URL(url).origin;
  } catch {
    return null;
  }
};

/**
 * The origin S3 file URLs use (path-style or virtual-hosted), as uploads/s3-provider.ts builds
 * them; worked out here so that serving the admin UI does not load the AWS SDK.
 */
function bucketOrigin(s3: S3Config): string | null {
  if (s3.endpoint === null) return s3.forcePathStyle ? `https://s3.${s3.region}.amazonaws.com` : `https://${s3.bucket}.s3.${s3.region}.amazonaws.com`;
  const endpoint = originOf(s3.endpoint);
  if (endpoint === null || s3.forcePathStyle) return endpoint;
  const url = new URL(s3.endpoint);
  return `${url.protocol}//${s3.bucket}.${url.host}`;
}

/** Where file URLs point when they are not on this server: HEARTH_PUBLIC_URL, or the S3 bucket. */
function mediaOrigins(config: HearthConfig): string[] {
  const origins = new Set<string>();
  const publicOrigin = config.publicUrl === null ? null : originOf(config.publicUrl);
  if (publicOrigin) origins.add(publicOrigin);
  if (config.uploadProvider === 's3' && config.s3) {
    const bucket = bucketOrigin(config.s3);
    if (bucket) origins.add(bucket);
    const endpoint = config.s3.endpoint === null ? null : originOf(config.s3.endpoint);
    if (endpoint) origins.add(endpoint);
  }
  return [...origins];
}

/**
 * Pages of the admin UI whose editor (GraphiQL's monaco) writes `<style>` elements and `style`
 * attributes: their CSP lets styles be inline (and fonts be data: URLs); scripts, connections
 * and workers stay 'self'.
 * The admin UI links to them with a full page load, so the page is answered with this CSP.
 */
const INLINE_STYLE_PAGES = ['/playground'];

const inlineStylePage = (path: string) => INLINE_STYLE_PAGES.some((p) => path === p || path.startsWith(`${p}/`));

/** The admin UI's Content-Security-Policy: its own scripts and styles only (inline styles too with `inlineStyles`), media also from the file URL origins. */
export function adminCsp(config: HearthConfig, { inlineStyles = false }: { readonly inlineStyles?: boolean } = {}): string {
  const media = ["'self'", 'data:', 'blob:', ...mediaOrigins(config)].join(' ');
  return [
    "default-src 'self'",
    "script-src 'self'",
    inlineStyles ? "style-src 'self' 'unsafe-inline'" : "style-src 'self'",
    `img-src ${media}`,
    `media-src ${media}`,
    // GraphiQL's stylesheet carries its fonts as data: URLs.
    ...(inlineStyles ? ["font-src 'self' data:"] : []),
    "connect-src 'self'",
    "frame-ancestors 'none'",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
  ].join('; ');
}

const NOT_BUILT = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Hearth admin UI not built</title></head>
<body><h1>The Hearth admin UI has not been built</h1>
<p>Run <code>npm run build</code> in the Hearth folder, then reload this page. The content API at <code>/api</code> works without it.</p>
</body></html>
`;

const exists = (path: string) => stat(path).then((s) => s.isFile(), () => false);

/**
 * `/admin`: the built admin UI (`dist/renderer`, built with base `/admin/`). Files are served as
 * they are, any other path is the single-page app's `index.html`; every answer carries a strict
 * CSP and `nosniff`. Without a build, a 503 page says how to make one.
 */
export function adminUi(dir: string, config: HearthConfig): express.Router {
  const router = express.Router();
  const csp = adminCsp(config);
  const editorCsp = adminCsp(config, { inlineStyles: true });
  const index = join(dir, 'index.html');
  router.use((req: Request, res: Response, next: NextFunction) => {
    res.set('Content-Security-Policy', inlineStylePage(req.path) ? editorCsp : csp);
    res.set('X-Content-Type-Options', 'nosniff');
    res.set('X-Frame-Options', 'DENY');
    res.set('Referrer-Policy', 'no-referrer');
    next();
  });
  router.use(
    express.static(dir, {
      index: false,
      redirect: false,
      fallthrough: true,
      setHeaders: (res, path) => res.set('Cache-Control', path.includes(`${join(dir, 'assets')}`) ? 'public, max-age=31536000, immutable' : 'no-cache'),
    }),
  );
  router.use(async (req: Request, res: Response, next: NextFunction) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      next();
      return;
    }
    if (!(await exists(index))) {
      res.status(503).set('Content-Type', 'text/html; charset=utf-8').set('Cache-Control', 'no-store').send(NOT_BUILT);
      return;
    }
    res.set('Cache-Control', 'no-cache');
    res.sendFile(index);
  });
  return router;
}
