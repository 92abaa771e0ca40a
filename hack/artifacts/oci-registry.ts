import { createHash, timingSafeEqual } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';

// A minimal OCI distribution API (the pull side) with HTTP basic auth, serving one disk image as
// an ORAS-style artifact the way Ironic's OCI image service looks for one: a tag whose index
// lists a single-layer manifest annotated `disktype: raw`; the layer is the image itself.

const MEDIA_INDEX = 'application/vnd.oci.image.index.v1+json';
const MEDIA_MANIFEST = 'application/vnd.oci.image.manifest.v1+json';
const MEDIA_EMPTY = 'application/vnd.oci.empty.v1+json';
const MEDIA_LAYER = 'application/octet-stream';

export interface OciRegistryOptions {
  /** Repository path, e.g. `metal3/test-os`. */
  repository: string;
  tag: string;
  /** The disk image served as the artifact's only layer. */
  imageFile: string;
  imageTitle: string;
  credentials: { username: string; password: string };
}

/** One request the registry answered; `user` only when it carried the right credentials (never the password). */
export interface RegistryRequestRecord {
  at: string;
  method: string;
  path: string;
  status: number;
  user: string | null;
  /** Basic credentials were sent but were not the registry's. */
  wrongCredentials: boolean;
}

interface Blob {
  body: Buffer;
  mediaType: string;
}

const sha256 = (body: Buffer) => `sha256:${createHash('sha256').update(body).digest('hex')}`;
const json = (value: unknown) => Buffer.from(JSON.stringify(value));

export class OciRegistry {
  readonly #options: OciRegistryOptions;
  readonly #blobs = new Map<string, Blob>();
  readonly #manifests = new Map<string, Blob>();
  readonly #records: RegistryRequestRecord[] = [];

  constructor(options: OciRegistryOptions) {
    this.#options = options;
    const image = readFileSync(options.imageFile);
    const config = Buffer.from('{}');
    const manifest = json({
      schemaVersion: 2,
      mediaType: MEDIA_MANIFEST,
      artifactType: 'application/vnd.metal3-ts.disk-image',
      config: { mediaType: MEDIA_EMPTY, digest: sha256(config), size: config.length },
      layers: [{ mediaType: MEDIA_LAYER, digest: sha256(image), size: image.length, annotations: { 'org.opencontainers.image.title': options.imageTitle } }],
    });
    const index = json({
      schemaVersion: 2,
      mediaType: MEDIA_INDEX,
      manifests: [{
        mediaType: MEDIA_MANIFEST, digest: sha256(manifest), size: manifest.length,
        platform: { architecture: 'amd64', os: 'linux' }, annotations: { disktype: 'raw' },
      }],
    });
    this.#blobs.set(sha256(image), { body: image, mediaType: MEDIA_LAYER });
    this.#blobs.set(sha256(config), { body: config, mediaType: MEDIA_EMPTY });
    this.#manifests.set(sha256(manifest), { body: manifest, mediaType: MEDIA_MANIFEST });
    this.#manifests.set(sha256(index), { body: index, mediaType: MEDIA_INDEX });
    this.#manifests.set(options.tag, { body: index, mediaType: MEDIA_INDEX });
  }

  get records(): RegistryRequestRecord[] {
    return structuredClone(this.#records);
  }

  /** Answers a request under /v2/. */
  handle(request: IncomingMessage, response: ServerResponse, path: string): void {
    const auth = this.#authenticate(request.headers.authorization);
    const answer = (status: number, headers: Record<string, string | number>, body?: Buffer) => {
      this.#records.push({ at: new Date().toISOString(), method: request.method ?? '', path, status, user: auth.user, wrongCredentials: auth.wrong });
      response.writeHead(status, headers);
      response.end(request.method === 'HEAD' ? undefined : body);
    };
    if (auth.user === null) {
      const body = json({ errors: [{ code: 'UNAUTHORIZED', message: 'authentication required' }] });
      answer(401, { 'www-authenticate': 'Basic realm="metal3-ts registry"', 'content-type': 'application/json' }, body);
      return;
    }
    const found = this.#resolve(path);
    if (found === undefined) {
      answer(404, { 'content-type': 'application/json' }, json({ errors: [{ code: 'NOT_FOUND', message: `${path} not found` }] }));
      return;
    }
    answer(200, { 'content-type': found.mediaType, 'content-length': found.body.length, 'docker-content-digest': sha256(found.body) }, found.body);
  }

  #resolve(path: string): Blob | undefined {
    if (path === '/v2/' || path === '/v2') return { body: Buffer.from('{}'), mediaType: 'application/json' };
    const prefix = `/v2/${this.#options.repository}/`;
    if (!path.startsWith(prefix)) return undefined;
    const [kind, reference] = path.slice(prefix.length).split('/', 2);
    if (kind === 'tags' && reference === 'list') {
      return { body: json({ name: this.#options.repository, tags: [this.#options.tag] }), mediaType: 'application/json' };
    }
    if (reference === undefined) return undefined;
    if (kind === 'manifests') return this.#manifests.get(reference);
    if (kind === 'blobs') return this.#blobs.get(reference);
    return undefined;
  }

  #authenticate(header: string | undefined): { user: string | null; wrong: boolean } {
    const match = /^Basic\s+(\S+)$/i.exec(header ?? '');
    if (!match) return { user: null, wrong: false };
    const decoded = Buffer.from(match[1]!, 'base64').toString('utf8');
    const expected = `${this.#options.credentials.username}:${this.#options.credentials.password}`;
    const [given, wanted] = [Buffer.from(decoded), Buffer.from(expected)];
    const same = given.length === wanted.length && timingSafeEqual(given, wanted);
    return same ? { user: this.#options.credentials.username, wrong: false } : { user: null, wrong: true };
  }
}
