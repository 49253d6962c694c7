/*
 * vplace.c - memory bound to a socket's NUMA node and threads bound to
 * their CPUs, with hwloc (vplace.h).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <hwloc.h>

#include "vplace.h"

struct hw {
	hwloc_topology_t t;
	char source[256];
	long page;
};

/* hwloc binds nothing on a topology that is not this machine's (an XML
 * file, a synthetic one): say so rather than pretend. */
static int this_machine(struct hw *h, const char *what, char *why, size_t len)
{
	if (hwloc_topology_is_thissystem(h->t))
		return 1;
	snprintf(why, len, "%s: the topology (%s) is not this machine's, hwloc binds nothing on it "
		 "(HWLOC_THISSYSTEM=1 asserts it is)", what, h->source);
	return 0;
}

static int node_of_socket(void *ctx, int socket, char *why, size_t len)
{
	struct hw *h = ctx;
	int npkg = hwloc_get_nbobjs_by_type(h->t, HWLOC_OBJ_PACKAGE);
	hwloc_obj_t o = npkg > 0 ? hwloc_get_obj_by_type(h->t, HWLOC_OBJ_PACKAGE, (unsigned)socket)
				 : socket == 0 ? hwloc_get_root_obj(h->t) : NULL;
	if (!o) {
		snprintf(why, len, "hwloc: no socket %d (the topology has %d package(s))", socket, npkg);
		return -1;
	}
	int node = hwloc_bitmap_first(o->nodeset);
	if (node < 0) {
		snprintf(why, len, "hwloc: socket %d has no NUMA node", socket);
		return -1;
	}
	return node;
}

static void touch(void *p, size_t bytes, long page)
{
	for (size_t off = 0; off < bytes; off += (size_t)page)
		((volatile char *)p)[off] = 0;
}

/* No memory binding on this system: the pages are first touched by this
 * thread bound, for the while, to the node's CPUs. */
static void *first_touch(struct hw *h, size_t bytes, int node, char *why, size_t len)
{
	hwloc_obj_t n = hwloc_get_numanode_obj_by_os_index(h->t, (unsigned)node);
	hwloc_bitmap_t was = hwloc_bitmap_alloc();
	void *p = NULL;

	if (!n || hwloc_bitmap_iszero(n->cpuset)) {
		snprintf(why, len, "hwloc: NUMA node %d has no CPU to touch its memory from", node);
		goto out;
	}
	if (!was || hwloc_get_cpubind(h->t, was, HWLOC_CPUBIND_THREAD) != 0) {
		snprintf(why, len, "hwloc: cannot read this thread's binding: %s", strerror(errno));
		goto out;
	}
	if (hwloc_set_cpubind(h->t, n->cpuset, HWLOC_CPUBIND_THREAD) != 0) {
		snprintf(why, len, "hwloc: no memory binding here, and this thread cannot be bound to "
			 "NUMA node %d's CPUs to touch its pages first: %s", node, strerror(errno));
		goto out;
	}
	p = hwloc_alloc(h->t, bytes);
	if (p)
		touch(p, bytes, h->page);
	else
		snprintf(why, len, "out of memory for %zu bytes", bytes);
	if (hwloc_set_cpubind(h->t, was, HWLOC_CPUBIND_THREAD) != 0 && p) {
		snprintf(why, len, "hwloc: cannot put this thread's binding back: %s", strerror(errno));
		hwloc_free(h->t, p, bytes);
		p = NULL;
	}
out:
	hwloc_bitmap_free(was);
	return p;
}

static void *alloc(void *ctx, size_t bytes, int node, char *why, size_t len)
{
	struct hw *h = ctx;
	hwloc_bitmap_t ns = hwloc_bitmap_alloc();
	void *p = NULL;

	if (!ns) {
		snprintf(why, len, "out of memory");
		return NULL;
	}
	if (!this_machine(h, "binding memory", why, len))
		goto out;
	hwloc_bitmap_only(ns, (unsigned)node);
	errno = 0;
	p = hwloc_alloc_membind(h->t, bytes, ns, HWLOC_MEMBIND_BIND,
				HWLOC_MEMBIND_BYNODESET | HWLOC_MEMBIND_STRICT);
	if (p) {
		touch(p, bytes, h->page);
	} else if (errno == ENOSYS) {
		p = first_touch(h, bytes, node, why, len);
	} else {
		snprintf(why, len, "hwloc cannot bind %zu bytes to NUMA node %d: %s", bytes, node,
			 strerror(errno));
	}
out:
	hwloc_bitmap_free(ns);
	return p;
}

static void release(void *ctx, void *p, size_t bytes)
{
	struct hw *h = ctx;
	if (p)
		hwloc_free(h->t, p, bytes);
}

/* The nodes holding [p, p + bytes) into got; 0 or -1. */
static int where(struct hw *h, const void *p, size_t bytes, hwloc_bitmap_t got)
{
	hwloc_bitmap_zero(got);
	return hwloc_get_area_memlocation(h->t, p, bytes, got, HWLOC_MEMBIND_BYNODESET);
}

static long misplaced(void *ctx, const void *p, size_t bytes, int node, char *why, size_t len)
{
	struct hw *h = ctx;
	hwloc_bitmap_t got = hwloc_bitmap_alloc();
	long n = -1;

	if (!got) {
		snprintf(why, len, "out of memory");
		return -1;
	}
	if (!this_machine(h, "reading where pages are", why, len))
		goto out;
	errno = 0;
	if (where(h, p, bytes, got) != 0 || hwloc_bitmap_iszero(got)) {
		snprintf(why, len, "hwloc cannot tell which NUMA node holds the pages: %s",
			 errno ? strerror(errno) : "no answer");
		goto out;
	}
	n = 0;
	if (hwloc_bitmap_weight(got) == 1 && hwloc_bitmap_isset(got, (unsigned)node))
		goto out;
	/* Somewhere else: count the pages one by one. */
	for (size_t off = 0; off < bytes; off += (size_t)h->page) {
		const char *q = (const char *)p + off;
		if (where(h, q, (size_t)h->page, got) != 0 || hwloc_bitmap_weight(got) != 1 ||
		    !hwloc_bitmap_isset(got, (unsigned)node))
			n++;
	}
out:
	hwloc_bitmap_free(got);
	return n;
}

static int bind_thread(void *ctx, int cpu, char *why, size_t len)
{
	struct hw *h = ctx;
	hwloc_obj_t pu = hwloc_get_pu_obj_by_os_index(h->t, (unsigned)cpu);

	if (!pu) {
		snprintf(why, len, "hwloc: no CPU %d in the topology", cpu);
		return -1;
	}
	if (!this_machine(h, "binding a thread", why, len))
		return -1;
	if (hwloc_set_cpubind(h->t, pu->cpuset, HWLOC_CPUBIND_THREAD) != 0) {
		snprintf(why, len, "hwloc cannot bind a thread to CPU %d: %s", cpu, strerror(errno));
		return -1;
	}
	return 0;
}

int vplace_hwloc_open(struct vplace_ops *ops, const char *source, char *why, size_t len)
{
	struct hw *h = calloc(1, sizeof(*h));

	memset(ops, 0, sizeof(*ops));
	if (!h || hwloc_topology_init(&h->t) != 0) {
		snprintf(why, len, "hwloc: cannot start a topology (out of memory)");
		free(h);
		return -1;
	}
	snprintf(h->source, sizeof(h->source), "%s", source ? source : "this machine");
	int rc = 0;
	if (source && !strncmp(source, "xml:", 4))
		rc = hwloc_topology_set_xml(h->t, source + 4);
	else if (source && !strncmp(source, "synthetic:", 10))
		rc = hwloc_topology_set_synthetic(h->t, source + 10);
	else if (source) {
		snprintf(why, len, "topology source \"%s\": want xml:PATH or synthetic:DESC", source);
		rc = 1;
	}
	if (rc < 0)
		snprintf(why, len, "hwloc cannot read the topology %s", source);
	if (rc != 0 || hwloc_topology_load(h->t) != 0) {
		if (rc == 0)
			snprintf(why, len, "hwloc cannot load the topology of %s: %s", h->source,
				 strerror(errno));
		hwloc_topology_destroy(h->t);
		free(h);
		return -1;
	}
	h->page = sysconf(_SC_PAGESIZE) > 0 ? sysconf(_SC_PAGESIZE) : 4096;
	ops->node_of_socket = node_of_socket;
	ops->alloc = alloc;
	ops->free = release;
	ops->misplaced = misplaced;
	ops->bind_thread = bind_thread;
	ops->ctx = h;
	return 0;
}

void vplace_hwloc_close(struct vplace_ops *ops)
{
	struct hw *h = ops->ctx;
	if (h) {
		hwloc_topology_destroy(h->t);
		free(h);
	}
	memset(ops, 0, sizeof(*ops));
}
