import type { paths } from './generated/desk-api.ts';

// Every type the client speaks is read off the generated description by path and method, never
// by a component's name: the names may change as the description is reworked, the paths are the
// contract.

export type Path = keyof paths;
export type Method = 'get' | 'post';

type Operation<P extends Path, M extends Method> = paths[P] extends { [K in M]: infer O } ? O : never;
type JsonOf<R> = R extends { content: { 'application/json': infer B } } ? B : never;

/** The whole 200 body of an operation. */
export type AnswerOf<P extends Path, M extends Method> =
  Operation<P, M> extends { responses: { 200: infer R } } ? JsonOf<R> : never;

/** The `data` of an operation's 200 body: what the client's methods return. */
export type DataOf<P extends Path, M extends Method> = AnswerOf<P, M> extends { data: infer D } ? D : never;

/** The query parameters an operation takes; an empty object when it takes none. */
export type QueryOf<P extends Path, M extends Method> =
  Operation<P, M> extends { parameters: { query?: infer Q } }
    ? [NonNullable<Q>] extends [never]
      ? Record<string, never>
      : NonNullable<Q>
    : Record<string, never>;

/** The JSON request body an operation takes. */
export type BodyOf<P extends Path, M extends Method> =
  Operation<P, M> extends { requestBody?: infer B } ? JsonOf<NonNullable<B>> : never;

/** The `{id}` path parameter of an operation. */
export type IdOf<P extends Path, M extends Method> =
  Operation<P, M> extends { parameters: { path: { id: infer I } } } ? I : never;

type Responses<P extends Path, M extends Method> = Operation<P, M> extends { responses: infer R } ? R : never;
type CodeOf<R> = R extends { content: { 'application/json': { error: { code: infer C } } } } ? C : never;
type CodesOf<P extends Path, M extends Method> = CodeOf<Responses<P, M>[keyof Responses<P, M>]>;

/** Every error `code` some route names in its answers: what `DeskApiError.code` can be. */
export type ErrorCode = { [P in Path]: { [M in Method]: CodesOf<P, M> }[Method] }[Path];

type ErrorOf<R> = R extends { content: { 'application/json': { error: infer E } } } ? E : never;
type AnyErrorBody = { [P in Path]: { [M in Method]: ErrorOf<Responses<P, M>[keyof Responses<P, M>]> }[Method] }[Path];
type DetailsIn<E, C> = E extends { code: C; details?: infer D } ? NonNullable<D> : never;

/** The `details` the contract gives an error of this code, such as `{ permission }` on `not_permitted`. */
export type ErrorDetails<C extends ErrorCode> = DetailsIn<AnyErrorBody, C>;
