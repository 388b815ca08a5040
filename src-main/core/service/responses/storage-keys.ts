import { firstString, isRecord, looseRecord, notUnderstood } from './read-body';

/** The answer of files/upload/tensors: the storage keys of the uploaded tensors, by role. */

export interface StorageKeys {
  videoInputKey?: string;
  audioInputKey?: string;
  videoKwargsKey?: string;
  /** Every key found, by the name it was found under. */
  all: Record<string, string>;
  raw: unknown;
}

const KEY_ROLES: Array<[keyof Omit<StorageKeys, 'all' | 'raw'>, string[]]> = [
  ['videoInputKey', ['videoinputkey', 'videoinput', 'video', 'videokey']],
  ['audioInputKey', ['audioinputkey', 'audioinput', 'audio', 'audiokey']],
  ['videoKwargsKey', ['videokwargskey', 'videokwargs', 'kwargs', 'videokwargskey']],
];

function roleOf(name: string): keyof Omit<StorageKeys, 'all' | 'raw'> | undefined {
  const n = name.toLowerCase().replace(/[^a-z0-9]/g, '');
  for (const [role, names] of KEY_ROLES) if (names.includes(n)) return role;
  return undefined;
}

/**
 * storage_keys as an object ({video_input_key: ...} or {video_input: ...}), a list of
 * {name|field, key|storage_key}, or the keys at the top level of the body.
 */
export function parseStorageKeys(body: unknown): StorageKeys {
  const o = looseRecord.safeParse(body);
  if (!o.success) throw notUnderstood('files/upload/tensors', body);
  const container: unknown = o.data.storage_keys ?? o.data.storageKeys ?? o.data.keys ?? o.data;
  const all: Record<string, string> = {};
  if (Array.isArray(container)) {
    for (const item of container) {
      if (!isRecord(item)) continue;
      const name = firstString(item, ['name', 'field', 'input', 'role', 'type']);
      const key = firstString(item, ['key', 'storage_key', 'storageKey', 'id', 'value']);
      if (name && key) all[name] = key;
    }
  } else if (isRecord(container)) {
    for (const [k, v] of Object.entries(container)) {
      if (typeof v === 'string' && roleOf(k)) all[k] = v;
      else if (isRecord(v)) {
        const key = firstString(v, ['key', 'storage_key', 'storageKey', 'id']);
        if (key) all[k] = key;
      }
    }
  }
  const out: StorageKeys = { all, raw: body };
  for (const [name, key] of Object.entries(all)) {
    const role = roleOf(name);
    if (role && out[role] === undefined) out[role] = key;
  }
  if (!out.videoInputKey && !out.audioInputKey && !out.videoKwargsKey) throw notUnderstood('files/upload/tensors', body);
  return out;
}
