import { Ajv2020 } from 'ajv/dist/2020.js';
import { HEADERS } from '../../spec/headers.js';
import { PUBLISH_ERROR_CODES, REFERENCE_ONLY_ROUTES } from '../../spec/publish.js';
import type { IdSource } from '../../widgets/publish/index.js';
import { errorAnswer, render } from '../render.js';
import { PLATFORM_ERROR_CODES, type VerifiedRoute } from '../routes.js';
import type { UserDirectory } from './users.js';

/** The body of the reference-only folder upload: files by folder-relative path, as UTF-8 text. */
interface FolderUpload {
  readonly files: Readonly<Record<string, string>>;
  /** The catalog record id of the widget this folder remixes (what the platform records when a user remixes). */
  readonly remixOf?: string;
}

/** The folder store the upload writes to. */
export interface FolderWriter {
  put(folder: { id: string; ownerId: string; files: ReadonlyMap<string, Uint8Array>; remixOf?: string }): unknown;
}

const UPLOAD_SCHEMA = {
  type: 'object',
  required: ['files'],
  additionalProperties: false,
  properties: {
    files: {
      type: 'object',
      minProperties: 1,
      propertyNames: { pattern: String.raw`^(?!/)(?!.*(?:^|/)\.\.?(?:/|$))[^\\\u0000-\u001f]+$` },
      additionalProperties: { type: 'string' },
    },
    remixOf: { type: 'string', minLength: 1 },
  },
} as const;

const validateUpload = new Ajv2020({ allErrors: true }).compile<FolderUpload>(UPLOAD_SCHEMA);
const encoder = new TextEncoder();
const decoder = new TextDecoder('utf-8', { fatal: true });
const STATUS = Object.freeze({ created: 201, badRequest: 400, forbidden: 403, tooLarge: 413 });

/**
 * NOT part of the spec (REFERENCE_ONLY_ROUTES): POST /_reference/folders creates a folder owned by the verified
 * caller, so a live run against the reference can publish something. Body: `{ "files": { "<path>": "<text>" },
 * "remixOf"?: "<catalog id>" }`; answer 201 `{ "folderId" }`. A real deployment has its own folder API.
 */
export function uploadRoute(folders: FolderWriter, ids: IdSource, users: UserDirectory): VerifiedRoute {
  return {
    name: REFERENCE_ONLY_ROUTES.folders,
    path: REFERENCE_ONLY_ROUTES.folders,
    access: 'verified',
    methods: {
      POST: async (ctx) => {
        const ownerId = users.userIdOf(ctx.verdict);
        if (ownerId === null)
          return render(errorAnswer(STATUS.forbidden, PUBLISH_ERROR_CODES.notFolderOwner, 'The credential names no user, so it cannot own a folder.'));
        const read = await ctx.read();
        if (read.truncated)
          return render(errorAnswer(STATUS.tooLarge, PLATFORM_ERROR_CODES.badRequest, 'The folder upload is larger than a signed request may be (section 8).'));
        let upload: unknown;
        try {
          upload = JSON.parse(decoder.decode(read.request.body ?? new Uint8Array()));
        } catch {
          return render(
            errorAnswer(STATUS.badRequest, PLATFORM_ERROR_CODES.badRequest, 'The body is not UTF-8 JSON; send { "files": { "<path>": "<text>" } }.'),
          );
        }
        if (!validateUpload(upload)) {
          const detail = (validateUpload.errors ?? []).map((e) => `${e.instancePath || '/'} ${e.message ?? 'is invalid'}`).join('; ');
          return render(
            errorAnswer(
              STATUS.badRequest,
              PLATFORM_ERROR_CODES.badRequest,
              `The folder upload is not { "files": { "<relative path>": "<text>" }, "remixOf"?: "<id>" }: ${detail}`,
            ),
          );
        }
        const files = new Map(Object.entries(upload.files).map(([path, text]) => [path.replace(/^\.\//, ''), encoder.encode(text)] as const));
        const id = ids.next('folder');
        await folders.put({ id, ownerId, files, ...(upload.remixOf !== undefined ? { remixOf: upload.remixOf } : {}) });
        return render({ status: STATUS.created, headers: { [HEADERS.cacheControl]: 'no-store' }, body: { folderId: id } });
      },
    },
  };
}
