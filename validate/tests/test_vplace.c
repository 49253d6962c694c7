/*
 * test_vplace.c - the hardware path's placement of memory and threads.
 *
 * With a recording table of placement calls (struct vplace_ops) on a
 * two-socket machine whose socket s holds NUMA node 10 + s:
 *   - before any kernel, a page is bound to the local and the remote node;
 *     an array for socket 1 is bound to node 11, whole pages, and its
 *     placement is a check (0 pages elsewhere);
 *   - pages found elsewhere, or a binding refused during the run: a FAIL
 *     check naming the node, the memory freed;
 *   - the remote node refused before the run: the NUMA kernel and the
 *     remote chase are skipped with the reason, no check of theirs made;
 *     the local node refused: the run cannot start;
 *   - the kernel threads are bound to their CPUs, and none runs the kernel
 *     when one cannot be bound.
 * With hwloc itself: a fake two-package XML topology maps socket 1 to node
 * 1 and binds nothing (it is not this machine); this machine's topology
 * binds pages to its node and reads them back there; the fake topology
 * taken as this machine (HWLOC_THISSYSTEM=1) cannot bind to a node this
 * machine lacks.
 */
#define _GNU_SOURCE
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <hwloc.h>
#include <omp.h>

#include "check.h"
#include "fake_hw.h"
#include "../vrun.h"

struct rec {
	int fail_node;           /* alloc refuses this node (-1: none) */
	long misplace;           /* what misplaced() answers */
	int fail_cpu;            /* bind_thread refuses this CPU (-1: none) */
	int nalloc, node[16];
	size_t bytes[16];
	int live;                /* allocations not freed */
	int nbind, cpu[16];
};

static int r_node(void *ctx, int socket, char *why, size_t len)
{
	(void)ctx;
	if (socket > 1) {
		snprintf(why, len, "no socket %d", socket);
		return -1;
	}
	return 10 + socket;
}

static void *r_alloc(void *ctx, size_t bytes, int node, char *why, size_t len)
{
	struct rec *r = ctx;
	if (r->nalloc < 16) {
		r->node[r->nalloc] = node;
		r->bytes[r->nalloc] = bytes;
	}
	r->nalloc++;
	if (node == r->fail_node) {
		snprintf(why, len, "refused on purpose: node %d", node);
		return NULL;
	}
	void *p = aligned_alloc(4096, bytes);
	if (p) {
		memset(p, 0, bytes);
		r->live++;
	}
	return p;
}

static void r_free(void *ctx, void *p, size_t bytes)
{
	struct rec *r = ctx;
	(void)bytes;
	if (p)
		r->live--;
	free(p);
}

static long r_misplaced(void *ctx, const void *p, size_t bytes, int node, char *why, size_t len)
{
	struct rec *r = ctx;
	(void)p;
	(void)bytes;
	(void)node;
	(void)why;
	(void)len;
	return r->misplace;
}

static int r_bind(void *ctx, int cpu, char *why, size_t len)
{
	struct rec *r = ctx;
	int refuse = cpu == r->fail_cpu;
#pragma omp critical(rec_bind)
	{
		if (r->nbind < 16)
			r->cpu[r->nbind] = cpu;
		r->nbind++;
	}
	if (refuse) {
		snprintf(why, len, "cannot bind a thread to CPU %d (on purpose)", cpu);
		return -1;
	}
	return 0;
}

static struct vctx *hw_ctx(struct rec *r)
{
	struct vctx *c = calloc(1, sizeof(*c));
	memset(r, 0, sizeof(*r));
	r->fail_node = -1;
	r->fail_cpu = -1;
	c->hw = 1;
	c->g.sockets = 2;
	c->o.socket = 0;
	c->o.remote = -1;
	c->o.kernels = (1u << VK_N) - 1;
	c->place = (struct vplace_ops){ r_node, r_alloc, r_free, r_misplaced, r_bind, r };
	return c;
}

static void done(struct vctx *c)
{
	vchecks_free(&c->checks);
	free(c);
}

static void test_bound_to_remote_node(void)
{
	struct rec r;
	struct vctx *c = hw_ctx(&r);
	struct karr a;

	CHECK_EQ_INT(vplace_preflight(c), 0, "preflight");
	CHECK(r.nalloc == 2 && r.node[0] == 10 && r.node[1] == 11,
	      "preflight binds a page to the local node 10 and the remote node 11 (%d calls)", r.nalloc);
	CHECK_EQ_INT(c->remote_ok, 1, "remote memory placeable");
	CHECK_EQ_INT(r.live, 0, "the probe pages are freed");
	CHECK_EQ_INT(c->checks.n, 0, "preflight makes no check");

	c->phase = "numa";
	CHECK_EQ_INT(varr_alloc(c, &a, 3 * 4096 + 8, VP_SOCKET, vremote(c)), 0, "remote array");
	CHECK_EQ_INT(r.node[2], 11, "the remote array is bound to the remote socket's node");
	CHECK_EQ_U64(r.bytes[2], 4 * 4096, "whole pages");
	CHECK_EQ_U64(a.bytes, 3 * 4096 + 8, "the array's size");
	CHECK(c->checks.n == 1 && c->checks.v[0].pass && c->checks.v[0].measured == 0 &&
	      !strcmp(c->checks.v[0].kernel, "numa") &&
	      !strcmp(c->checks.v[0].event, "pages off NUMA node 11 (socket 1)"),
	      "a passed placement check of the numa kernel: '%s'", c->checks.n ? c->checks.v[0].event : "");
	varr_free(c, &a);
	CHECK_EQ_INT(r.live, 0, "the array is freed through the table");

	CHECK_EQ_INT(varr_alloc(c, &a, 4096, VP_SOCKET, 0), 0, "local array");
	CHECK_EQ_INT(r.node[3], 10, "a local array is bound to the local node too");
	varr_free(c, &a);
	done(c);
}

static void test_misplaced_fails(void)
{
	struct rec r;
	struct vctx *c = hw_ctx(&r);
	struct karr a;

	c->phase = "stream";
	r.misplace = 3;
	CHECK(varr_alloc(c, &a, 8 * 4096, VP_SOCKET, 1) != 0, "3 pages elsewhere: the array is refused");
	CHECK_EQ_INT(c->place_failed, 1, "placement failure flagged");
	CHECK(c->checks.n == 1 && !c->checks.v[0].pass && c->checks.v[0].measured == 3,
	      "a FAIL with 3 pages off the node");
	CHECK(strstr(c->err, "3 of 8 pages") && strstr(c->err, "node 11"), "err: %s", c->err);
	CHECK_EQ_INT(r.live, 0, "the misplaced memory is freed");
	CHECK(a.host == NULL, "no array handed out");
	done(c);
}

static void test_refused_mid_run(void)
{
	struct rec r;
	struct vctx *c = hw_ctx(&r);
	struct karr a;

	CHECK_EQ_INT(vplace_preflight(c), 0, "preflight");
	r.fail_node = 11;
	c->phase = "chase";
	CHECK(varr_alloc(c, &a, 4096, VP_SOCKET, 1) != 0, "binding refused during the run");
	CHECK(c->checks.n == 1 && !c->checks.v[0].pass && isnan(c->checks.v[0].measured) &&
	      strstr(c->checks.v[0].why, "refused on purpose: node 11"),
	      "a FAIL check with the reason, no number");
	CHECK_EQ_INT(c->place_failed, 1, "placement failure flagged");
	done(c);
}

static void test_remote_refused_before(void)
{
	struct rec r;
	struct vctx *c = hw_ctx(&r);

	r.fail_node = 11;
	CHECK_EQ_INT(vplace_preflight(c), 0, "preflight: remote refused is not fatal");
	CHECK_EQ_INT(c->remote_ok, 0, "remote memory not placeable");
	CHECK(strstr(c->remote_why, "remote socket 1") && strstr(c->remote_why, "refused on purpose"),
	      "why: %s", c->remote_why);
	int nalloc = r.nalloc;
	CHECK_EQ_INT(exp_numa(c), 0, "the numa kernel ends without error");
	CHECK_EQ_INT(r.nalloc, nalloc, "and allocates nothing");
	CHECK_EQ_INT(c->checks.n, 0, "no check reported as run");
	CHECK(c->nskips == 1 && strstr(c->skips[0].what, "numa-remote-triad: not run: memory cannot "
						  "be placed on the remote socket 1"),
	      "skipped with the reason: %s", c->nskips ? c->skips[0].what : "");
	CHECK_EQ_INT(vremote_ok(c, "chase-line-mem-remote"), 0, "the remote chase is not run");
	CHECK(c->nskips == 2 && strstr(c->skips[1].what, "chase-line-mem-remote: not run"),
	      "its skip recorded");
	done(c);

	c = hw_ctx(&r);
	r.fail_node = 10;
	CHECK_EQ_INT(vplace_preflight(c), -1, "local memory refused: the run cannot start");
	CHECK(strstr(c->err, "local memory (socket 0)") != NULL, "err: %s", c->err);
	done(c);
}

static int ran[2];
static void work(struct vctx *c, int t, int n, struct kfeed *f, void *arg)
{
	(void)c;
	(void)n;
	(void)f;
	(void)arg;
	ran[t] = 1;
}

static void test_threads_bound(void)
{
	struct rec r;
	struct vctx *c = hw_ctx(&r);
	int cpus[2] = { 3, 5 };

	CHECK_EQ_INT(vpar(c, 2, cpus, work, NULL), 0, "vpar");
	CHECK(r.nbind == 2 && ((r.cpu[0] == 3 && r.cpu[1] == 5) || (r.cpu[0] == 5 && r.cpu[1] == 3)),
	      "each thread bound to its CPU (%d binds)", r.nbind);
	CHECK(ran[0] && ran[1], "both threads ran the kernel");
	ran[0] = ran[1] = 0;
	r.fail_cpu = 5;
	CHECK_EQ_INT(vpar(c, 2, cpus, work, NULL), PMON_EIO, "a thread that cannot be bound");
	CHECK(!ran[0] && !ran[1], "no thread ran the kernel");
	CHECK(strstr(c->err, "CPU 5") != NULL, "err: %s", c->err);
	done(c);
}

static void test_hwloc(void)
{
	char dir[64], xml[128], src[140], why[256];
	struct vplace_ops ops;

	CHECK(fake_tmpdir(dir, sizeof(dir)) == 0, "tmpdir");
	snprintf(xml, sizeof(xml), "%s/topo.xml", dir);
	snprintf(src, sizeof(src), "xml:%s", xml);
	CHECK(fake_hwloc_xml(xml, 2, 2, 1, 1, NULL, 0) == 0, "fake topology");

	/* A fake topology: nodes by socket, no binding. */
	unsetenv("HWLOC_THISSYSTEM");
	CHECK_EQ_INT(vplace_hwloc_open(&ops, src, why, sizeof(why)), 0, "open the fake topology");
	if (ops.ctx) {
		CHECK_EQ_INT(ops.node_of_socket(ops.ctx, 1, why, sizeof(why)), 1, "socket 1: node 1");
		CHECK_EQ_INT(ops.node_of_socket(ops.ctx, 0, why, sizeof(why)), 0, "socket 0: node 0");
		CHECK_EQ_INT(ops.node_of_socket(ops.ctx, 2, why, sizeof(why)), -1, "no socket 2");
		void *p = ops.alloc(ops.ctx, 4096, 1, why, sizeof(why));
		CHECK(p == NULL && strstr(why, "not this machine's"), "no binding on it: %s", why);
		CHECK_EQ_INT(ops.bind_thread(ops.ctx, 1, why, sizeof(why)), -1, "no thread binding on it");
		vplace_hwloc_close(&ops);
	}
	CHECK(vplace_hwloc_open(&ops, "bogus:x", why, sizeof(why)) == -1 && strstr(why, "bogus:x"),
	      "a bad topology source is named: %s", why);

	/* This machine: bound to its first node, read back there. */
	CHECK_EQ_INT(vplace_hwloc_open(&ops, NULL, why, sizeof(why)), 0, "open this machine");
	int nodes = 0;
	if (ops.ctx) {
		int node = ops.node_of_socket(ops.ctx, 0, why, sizeof(why));
		CHECK(node >= 0, "socket 0's node %d", node);
		hwloc_topology_t t;
		hwloc_topology_init(&t);
		hwloc_topology_load(t);
		nodes = hwloc_get_nbobjs_by_type(t, HWLOC_OBJ_NUMANODE);
		hwloc_topology_destroy(t);
		void *p = ops.alloc(ops.ctx, 16 * 4096, node, why, sizeof(why));
		CHECK(p != NULL, "bound to node %d: %s", node, p ? "" : why);
		if (p) {
			long off = ops.misplaced(ops.ctx, p, 16 * 4096, node, why, sizeof(why));
			CHECK_EQ_INT(off, 0, "every page on the node it was bound to");
			ops.free(ops.ctx, p, 16 * 4096);
		}
		CHECK_EQ_INT(ops.bind_thread(ops.ctx, 0, why, sizeof(why)), 0, "a thread bound to CPU 0");
		CHECK_EQ_INT(ops.bind_thread(ops.ctx, 4096, why, sizeof(why)), -1, "no CPU 4096");
		vplace_hwloc_close(&ops);
	}

	/* The fake topology taken as this machine: node 1 exists only in it. */
	setenv("HWLOC_THISSYSTEM", "1", 1);
	CHECK_EQ_INT(vplace_hwloc_open(&ops, src, why, sizeof(why)), 0, "open the fake as this machine");
	unsetenv("HWLOC_THISSYSTEM");
	if (ops.ctx) {
		void *p = ops.alloc(ops.ctx, 4096, 1, why, sizeof(why));
		if (nodes < 2)
			CHECK(p == NULL && strstr(why, "NUMA node 1"),
			      "this machine has %d node(s): binding to node 1 fails, named: %s", nodes, why);
		else
			CHECK(p != NULL, "this machine has node 1: bound");
		if (p)
			ops.free(ops.ctx, p, 4096);
		vplace_hwloc_close(&ops);
	}
	fake_rmtree(dir);
}

int main(void)
{
	test_bound_to_remote_node();
	test_misplaced_fails();
	test_refused_mid_run();
	test_remote_refused_before();
	test_threads_bound();
	test_hwloc();
	return check_done("test_vplace");
}
