import { z } from 'zod';

/** The part of an apiextensions.k8s.io/v1 ConversionReview request a converter needs. */
export const conversionReviewSchema = z.looseObject({
  apiVersion: z.literal('apiextensions.k8s.io/v1'),
  kind: z.literal('ConversionReview'),
  request: z.looseObject({
    uid: z.string(),
    desiredAPIVersion: z.string(),
    objects: z.array(z.unknown()),
  }),
});

export type ConversionRequest = z.infer<typeof conversionReviewSchema>['request'];

export interface ConversionResponseBody {
  apiVersion: 'apiextensions.k8s.io/v1';
  kind: 'ConversionReview';
  response: {
    uid: string;
    /** In the order of the request's objects. */
    convertedObjects: unknown[];
    /** On Failure the API server refuses the whole request with this message. */
    result: { status: 'Success' | 'Failure'; message?: string };
  };
}

export type ConversionHandler = (request: ConversionRequest) => ConversionResponseBody;

/** Every object converted. */
export function converted(uid: string, objects: readonly unknown[]): ConversionResponseBody {
  return { apiVersion: 'apiextensions.k8s.io/v1', kind: 'ConversionReview', response: { uid, convertedObjects: [...objects], result: { status: 'Success' } } };
}

/** The conversion failed; the client sees the message. */
export function conversionFailed(uid: string, message: string): ConversionResponseBody {
  return { apiVersion: 'apiextensions.k8s.io/v1', kind: 'ConversionReview', response: { uid, convertedObjects: [], result: { status: 'Failure', message } } };
}
