import type { Services } from '../services.js';
import { metadata, TransferError, type Channel, type Provider } from './protocol.js';
import { schemasByUid } from './schemas.js';

const ORIGIN = 'local-destination-provider';

/**
 * The push side (`strapi transfer --to`): Hearth is the destination. It answers the checks the
 * client runs before any data (metadata, schemas), then refuses to start: writing a push into a
 * running server's data is not done yet, and nothing has been changed when it says so.
 */
export function createPushDestination(deps: { services: Services; channel: Channel; options: unknown }): Provider {
  const { services, channel } = deps;
  return {
    async action(action) {
      switch (action) {
        case 'bootstrap':
          await channel.diagnostic('validating options', ORIGIN);
          return null;
        case 'getMetadata':
          await channel.diagnostic('getting metadata', ORIGIN);
          return metadata(services.now());
        case 'getSchemas':
          await channel.diagnostic('getting schema', ORIGIN);
          return schemasByUid(services.registry());
        case 'close':
        case 'rollback':
          return null;
        case 'beforeTransfer':
          throw new TransferError('ProviderTransferError', 'Hearth does not accept pushed content yet: import a Strapi export with hearth import --from-strapi instead');
        default:
          throw new TransferError('ProviderTransferError', `Invalid action provided: "${action}"`, { action });
      }
    },
    async step() {
      throw new TransferError('ProviderTransferError', 'Invalid Transfer Process');
    },
    async dispose() {},
  };
}
