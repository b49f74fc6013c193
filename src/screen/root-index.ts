// What `GET /` tells a program that is not a browser: where things are. A browser at `/` gets the
// owner's screen (src/screen), which answers with this for any request that does not ask for HTML.

export const ROOT_INDEX = {
  name: 'Desk',
  api: '/api/v1',
  openapi: '/api/v1/openapi.json',
  screen: '/',
  help: 'Programs use the API at /api/v1 with a bearer key; its description needs no key. The owner signs in to the screen at / with a link from `desk owner link`.',
};
