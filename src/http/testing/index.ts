// What the HTTP edge's tests share: the edge alone, without the service's routes. Excluded
// from the build (tsconfig.build.json).
export { createBareHttpServer } from './bare-server.js';
