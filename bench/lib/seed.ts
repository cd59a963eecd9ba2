import { debusineAdminShellSync } from '../../test/support/debusine-admin';
import type { BenchServer } from './server';

/**
 * Makes sure the server holds at least `count` completed work requests for listing
 * benchmarks. They are written in bulk through Django's ORM (creating them through the API
 * would queue thousands of tasks on the sandbox's single worker), marked so that a later
 * run counts and reuses them, and the database analysed, as autovacuum would shortly after.
 */
export function seedWorkRequests(server: BenchServer, count: number): number {
  const script = `
from django.utils import timezone
from debusine.db.models import WorkRequest, Workspace
from django.contrib.auth import get_user_model
marker = {"debusine-desktop-bench": True}
have = WorkRequest.objects.filter(dynamic_task_data=marker).count()
missing = max(0, ${String(count)} - have)
if missing:
    ws = Workspace.objects.get(name=${JSON.stringify(server.workspace)}, scope__name=${JSON.stringify(server.scope)})
    user = get_user_model().objects.get(username="alice")
    now = timezone.now()
    WorkRequest.objects.bulk_create([
        WorkRequest(workspace=ws, created_by=user, task_type="Worker", task_name="noop",
                    task_data={}, dynamic_task_data=marker, status="completed",
                    result="success" if i % 7 else "failure", started_at=now, completed_at=now)
        for i in range(missing)
    ], batch_size=500)
# The planner's statistics of every table, as autovacuum gathers them some time after
# the changes. Not only after this bulk insert: the tests that ran before this one in the
# same run add workspaces, groups and roles, too few rows for autovacuum to look at these
# small tables again, and the list's permission query, planned on a workspace table
# believed to hold one row, took a second a page instead of a tenth (11,500 work requests,
# 41 workspaces).
from django.db import connection
with connection.cursor() as cursor:
    cursor.execute("ANALYZE")
print(WorkRequest.objects.count())
`;
  const out = debusineAdminShellSync(server.root, script);
  return Number(out.trim().split('\n').pop());
}
