import { describe, expect, it } from 'vitest';
import {
  artifactResponseSchema,
  enrollConfirmPayloadSchema,
  enrollPayloadSchema,
  fileRequestSchema,
  inheritanceElementFromString,
  inheritanceElementSchema,
  inheritanceElementsMatch,
  lookupSingleResponseSchema,
  relationCreateRequestSchema,
  workflowTemplateDataSchema,
  workRequestRequestSchema,
} from '../../src/shared/models';

describe('request and payload models', () => {
  it('file requests: checksums of at most 255 characters, type literally "file"', () => {
    const ok = { size: 1, checksums: { sha256: 'a'.repeat(255) }, type: 'file' };
    expect(fileRequestSchema.safeParse(ok).success).toBe(true);
    expect(
      fileRequestSchema.safeParse({ ...ok, checksums: { sha256: 'a'.repeat(256) } }).success,
    ).toBe(false);
    expect(fileRequestSchema.safeParse({ ...ok, type: 'directory' }).success).toBe(false);
    expect(fileRequestSchema.safeParse({ ...ok, size: '1' }).success).toBe(false);
  });

  it('request models reject values of the wrong type', () => {
    expect(
      relationCreateRequestSchema.safeParse({ artifact: '1', target: 2, type: 'extends' }).success,
    ).toBe(false);
    expect(
      relationCreateRequestSchema.safeParse({ artifact: 1, target: 2, type: 'depends' }).success,
    ).toBe(false);
    expect(
      workRequestRequestSchema.safeParse({ task_name: 'noop', task_data: [], event_reactions: {} })
        .success,
    ).toBe(false);
  });

  it('enrollment payloads reject unknown fields', () => {
    const payload = { nonce: 'n', challenge: 'c', scope: 's', hostname: 'h' };
    expect(enrollPayloadSchema.safeParse(payload).success).toBe(true);
    expect(enrollPayloadSchema.safeParse({ ...payload, extra: 1 }).success).toBe(false);
    expect(enrollConfirmPayloadSchema.safeParse({ outcome: 'confirm', token: 'abc' }).success).toBe(
      true,
    );
    expect(
      enrollConfirmPayloadSchema.safeParse({ outcome: 'cancel', token: null, x: 1 }).success,
    ).toBe(false);
    expect(enrollConfirmPayloadSchema.safeParse({ outcome: 'maybe', token: null }).success).toBe(
      false,
    );
  });
});

describe('workspace inheritance elements', () => {
  it('need an id or a workspace', () => {
    expect(inheritanceElementSchema.safeParse({ scope: 'debusine' }).success).toBe(false);
    expect(inheritanceElementSchema.safeParse({ id: 3 }).success).toBe(true);
    expect(inheritanceElementSchema.safeParse({ workspace: 'System' }).success).toBe(true);
  });

  it('match when every component set on one equals the other', () => {
    const full = { id: 1, scope: 'debusine', workspace: 'System' };
    expect(inheritanceElementsMatch({ id: null, scope: null, workspace: 'System' }, full)).toBe(
      true,
    );
    expect(inheritanceElementsMatch(full, { id: 1, scope: null, workspace: null })).toBe(true);
    expect(inheritanceElementsMatch(full, { id: 2, scope: null, workspace: null })).toBe(false);
    expect(inheritanceElementsMatch({ id: null, scope: 'other', workspace: 'System' }, full)).toBe(
      false,
    );
  });

  it('are built from user strings', () => {
    expect(inheritanceElementFromString('System')).toEqual({
      id: null,
      scope: null,
      workspace: 'System',
    });
    expect(inheritanceElementFromString('debian/developers')).toEqual({
      id: null,
      scope: 'debian',
      workspace: 'developers',
    });
    expect(() => inheritanceElementFromString('a/b/c')).toThrow();
    expect(() => inheritanceElementFromString('a/')).toThrow();
  });
});

describe('response models', () => {
  it('keep unknown fields and accept what older servers lack', () => {
    const old = artifactResponseSchema.parse({
      id: 1,
      workspace: 'System',
      category: 'debusine:test',
      created_at: '2026-01-01T00:00:00Z',
      data: {},
      download_tar_gz_url: 'http://h/x',
      files_to_upload: [],
      files: { a: { size: 0, checksums: { sha256: 'x' }, type: 'file', url: 'http://h/a' } },
      future_field: 42,
    });
    expect(old.url).toBeUndefined();
    expect(old.links).toEqual({});
    expect((old as Record<string, unknown>).future_field).toBe(42);
  });

  it('links may be strings or {href, type}', () => {
    const t = workflowTemplateDataSchema.parse({
      id: 1,
      name: 't',
      task_name: 'noop',
      static_parameters: { a: 1 },
      priority: 0,
      links: { self: '/api/x', webui_self: { href: '/x', type: 'text/html' } },
    });
    expect(t.task_data).toEqual({ a: 1 });
    expect(t.links.webui_self).toEqual({ href: '/x', type: 'text/html' });
  });

  it('lookup results are normalised to a/b/c, with the raw value kept', () => {
    const current = lookupSingleResponseSchema.parse({
      result_type: 'collection',
      collection_item: { name: 'x', category: 'c', data: {} },
      artifact: null,
      collection: 5,
    });
    expect(current.result_type).toBe('c');
    expect(current.raw_result_type).toBe('collection');
    const earlier = lookupSingleResponseSchema.parse({
      result_type: 'a',
      collection_item: 3,
      artifact: 4,
      collection: null,
    });
    expect(earlier).toMatchObject({ result_type: 'a', raw_result_type: 'a', collection_item: 3 });
    expect(lookupSingleResponseSchema.safeParse({ result_type: 'z' }).success).toBe(false);
  });
});

describe('update requests send only what changed', () => {
  it('leaves out collection fields that were not given (no reset to null)', async () => {
    const { collectionUpdateRequestSchema } = await import('../../src/shared/models');
    expect(
      collectionUpdateRequestSchema.parse({ id: 1, metadata_only_retention_period: 3 }),
    ).toEqual({
      id: 1,
      metadata_only_retention_period: 3,
    });
  });

  it('leaves out template fields that were not given (no priority 0, no empty task data)', async () => {
    const { workflowTemplateUpdateRequestSchema } = await import('../../src/shared/models');
    expect(workflowTemplateUpdateRequestSchema.parse({ id: 4, name: 'renamed' })).toEqual({
      id: 4,
      name: 'renamed',
    });
  });
});
