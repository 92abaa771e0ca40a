import { conversionFailed, converted } from '../../operator/runtime/index.ts';
import type { ConversionHandler, Logger } from '../../operator/runtime/index.ts';
import { ConversionError, convertObject } from '../api/index.ts';

/** Where CAPM3's CRDs send conversions (controller-runtime's path). */
export const CONVERSION_PATH = '/convert';

/**
 * CAPM3's conversion webhook: v1beta1 and v1beta2 objects of every Metal3 kind, in either
 * direction. One object that cannot be converted fails the request, saying which and why.
 */
export function conversionHandler(deps: { logger: Logger }): ConversionHandler {
  return (request) => {
    try {
      const objects = request.objects.map((object) => convertObject(object, request.desiredAPIVersion));
      deps.logger.debug('converted', { count: objects.length, to: request.desiredAPIVersion });
      return converted(request.uid, objects);
    } catch (error) {
      if (!(error instanceof ConversionError)) throw error;
      deps.logger.info('conversion refused', { to: request.desiredAPIVersion, reason: error.message });
      return conversionFailed(request.uid, error.message);
    }
  };
}
