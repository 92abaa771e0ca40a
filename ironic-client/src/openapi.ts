// Type-level bridge from the generated OpenAPI types to request inputs and response bodies.
import type { paths } from '../generated/ironic.ts';

export type HttpMethod = 'get' | 'put' | 'post' | 'patch' | 'delete';
export type Route = keyof paths;

export type Operation<R extends Route, M extends HttpMethod> = NonNullable<paths[R][M]>;

/** Routes that define the given method. */
export type RouteFor<M extends HttpMethod> = {
  [R in Route]: [Operation<R, M>] extends [never] ? never : R;
}[Route];

type ParametersOf<Op> = Op extends { parameters: infer P } ? P : never;
type JsonContent<T> = T extends { content: { 'application/json': infer B } } ? B : never;

export type PathParams<Op> = ParametersOf<Op> extends { path: infer P } ? P : undefined;
export type QueryParams<Op> = ParametersOf<Op> extends { query?: infer Q } ? Exclude<Q, undefined> : never;
export type RequestBody<Op> = Op extends { requestBody?: infer B } ? JsonContent<NonNullable<B>> : never;

type SuccessStatus = 200 | 201 | 202 | 204;
type Responses<Op> = Op extends { responses: infer R } ? R : never;
type BodyOrUndefined<T> = [JsonContent<T>] extends [never] ? undefined : JsonContent<T>;

/** JSON body of any 2xx response the operation declares; undefined for bodiless ones (204). */
export type SuccessBody<Op> = {
  [S in keyof Responses<Op> & SuccessStatus]: BodyOrUndefined<Responses<Op>[S]>;
}[keyof Responses<Op> & SuccessStatus];

type PathInput<Op> = PathParams<Op> extends undefined ? { path?: undefined } : { path: PathParams<Op> };
type QueryInput<Op> = [QueryParams<Op>] extends [never] ? { query?: undefined } : { query?: QueryParams<Op> };
type BodyInput<Op> = [RequestBody<Op>] extends [never] ? { body?: undefined } : { body?: RequestBody<Op> };

/** What a call to one operation takes: path parameters, query and JSON body. */
export type CallInput<Op> = PathInput<Op> & QueryInput<Op> & BodyInput<Op>;
