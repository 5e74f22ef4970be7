import express, { type Request } from 'express';
import { clearListView, parseListView, readListView, writeListView } from '../admin/list-view.js';
import { notFound } from '../errors/app-error.js';
import type { ContentTypeModel } from '../schema/types.js';
import type { Services } from '../services.js';
import { objectBody } from './admin-input.js';
import { sendJson } from './respond.js';

/**
 * `/content-manager/:uid/list-view`: the list settings of a content type (columns in order, the
 * page size it opens with), kept in the database for every admin as Strapi keeps its
 * content-manager configuration. `listView` is null until saved: the list shows its default columns.
 */
export function listViewRoutes(services: Services): express.Router {
  const router = express.Router();
  const modelOf = (req: Request): ContentTypeModel => {
    const model = services.registry().contentType(String(req.params.uid ?? ''));
    if (!model || model.builtIn || model.kind !== 'collectionType') throw notFound('Content type not found');
    return model;
  };
  const db = () => services.database.db;

  router.get('/content-manager/:uid/list-view', async (req, res) => {
    const model = modelOf(req);
    sendJson(res, 200, { data: { uid: model.uid, listView: await readListView(db(), model) } });
  });
  router.put('/content-manager/:uid/list-view', async (req, res) => {
    const model = modelOf(req);
    const view = parseListView(model, await objectBody(req));
    await writeListView(db(), model, view);
    sendJson(res, 200, { data: { uid: model.uid, listView: view } });
  });
  router.delete('/content-manager/:uid/list-view', async (req, res) => {
    const model = modelOf(req);
    await clearListView(db(), model);
    sendJson(res, 200, { data: { uid: model.uid, listView: null } });
  });
  return router;
}
