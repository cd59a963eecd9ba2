import { expect, it } from 'vitest';
import { collect } from '../../src/main/api/pagination';
import {
  rejection,
  unique,
  waitForCompletion,
  workerClientFor,
  createNoop,
  createNoopTemplate,
} from '../support/clients';
import { describeOnEachServer } from '../support/on-each-server';

describeOnEachServer('workflows and lookups on the %s server', ({ flavour, server, client }) => {
  const workspace = server.workspaces.default;

  it('workflowTemplateCreate, Get, Update, workflowCreate, Delete', async () => {
    const name = unique('tpl');
    const created = await createNoopTemplate(client, workspace, name);
    expect(created).toMatchObject({ name, task_name: 'noop', priority: 0, task_data: {} });
    if (flavour === 'current') expect(created.static_parameters).toEqual({});
    else expect(created.workspace).toBe(workspace);
    const byId = await client.workflowTemplateGet(workspace, created.id);
    expect(byId.name).toBe(name);
    if (flavour === 'current') {
      expect((await client.workflowTemplateGet(workspace, name)).id).toBe(created.id);
      const listed = await collect(client.workflowTemplateIter(workspace));
      expect(listed.map((t) => t.id)).toContain(created.id);
    } else {
      expect((await rejection(client.workflowTemplateGet(workspace, name))).code).toBe(
        'unsupported',
      );
      expect((await rejection(collect(client.workflowTemplateIter(workspace)))).code).toBe(
        'unsupported',
      );
    }
    const renamed = `${name}-renamed`;
    const updated = await client.workflowTemplateUpdate(workspace, {
      id: created.id,
      name: renamed,
      priority: -1,
    });
    expect(updated).toMatchObject({ id: created.id, name: renamed, priority: -1 });
    expect((await client.workflowTemplateGet(workspace, created.id)).name).toBe(renamed);

    const workflow = await client.workflowCreate({
      template_name: renamed,
      workspace,
      task_data: {},
    });
    expect(workflow.task_type).toBe('Workflow');
    expect(workflow.task_name).toBe('noop');
    expect(workflow.workspace).toBe(workspace);

    await client.workflowTemplateDelete(workspace, created.id);
    expect((await rejection(client.workflowTemplateGet(workspace, created.id))).code).toBe(
      'not-found',
    );
  });

  it('workflowTemplateCreateLegacy: legacy servers only', async () => {
    const name = unique('legacy');
    const request = { name, task_name: 'noop', workspace, task_data: {}, priority: 0 };
    if (flavour === 'current') {
      const error = await rejection(client.workflowTemplateCreateLegacy(request));
      expect(error.code).toBe('unsupported');
      expect(error.details.server).toBe(server.apiUrl);
      return;
    }
    const created = await client.workflowTemplateCreateLegacy(request);
    expect(created).toMatchObject({ name, task_name: 'noop', workspace, priority: 0 });
    await client.workflowTemplateDelete(workspace, created.id);
  });

  it('workflowCreate with an unknown template is not-found', async () => {
    const error = await rejection(
      client.workflowCreate({ template_name: unique('missing'), workspace, task_data: {} }),
    );
    expect(error.code).toBe('not-found');
  });

  it('lookupSingle and lookupMultiple, normalised to a/b/c', async () => {
    const wr = await waitForCompletion(client, (await createNoop(client)).id);
    const artifactId = wr.artifacts[0];
    if (artifactId === undefined) throw new Error('the noop task made no artifact');
    let lookupClient = client;
    let scope: { workspace?: string; work_request?: number } = { workspace };
    const worker = workerClientFor(server);
    if (flavour === 'earlier') {
      // 0.11: a user token is refused; the worker that ran the work request may look up.
      const refused = await rejection(
        client.lookupSingle({
          lookup: artifactId,
          work_request: wr.id,
          expect_type: 'artifact',
        }),
      );
      expect(['forbidden', 'auth']).toContain(refused.code);
      if (!worker) return;
      lookupClient = worker;
      scope = { work_request: wr.id };
    }
    try {
      const single = await lookupClient.lookupSingle({
        lookup: `${String(artifactId)}@artifacts`,
        expect_type: 'artifact',
        ...scope,
      });
      expect(single.result_type).toBe('a');
      expect(single.raw_result_type).toBe(flavour === 'current' ? 'artifact' : 'a');
      expect(single.artifact).toBe(artifactId);
      const multiple = await lookupClient.lookupMultiple({
        lookup: [artifactId, `${String(artifactId)}@artifacts`],
        expect_type: 'artifact',
        ...scope,
      });
      expect(multiple.map((r) => [r.result_type, r.artifact])).toEqual([
        ['a', artifactId],
        ['a', artifactId],
      ]);
      const missing = await rejection(
        lookupClient.lookupSingle({
          lookup: '999999999@artifacts',
          expect_type: 'artifact',
          ...scope,
        }),
      );
      expect(missing.code).toBe('not-found');
    } finally {
      await worker?.close();
    }
  });
});
