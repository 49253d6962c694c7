/*
 * vplace.h - where the suite's memory and threads go on the hardware.
 *
 * On silicon an array the kernels read from "socket 1" must be in socket
 * 1's DRAM, or the NUMA kernel, the remote chase and --place=remote measure
 * local memory.  Every array is bound to its socket's NUMA node with hwloc
 * (HWLOC_MEMBIND_BIND, strict); where the system cannot bind memory, its
 * pages are first touched by a thread bound to that socket's CPUs.  The
 * pages are then touched and their location read back (hwloc's area
 * memory location, move_pages on Linux): a page elsewhere is a FAIL.  The
 * kernel threads are bound to their CPUs with hwloc.
 *
 * The calls go through a small table (struct vplace_ops) so that a test
 * sees which node each array was bound to and can make a binding fail.
 * The emulated machine places its memory itself (pmon_sim_mem_alloc) and
 * does not use this.
 */
#ifndef PMON_VALIDATE_VPLACE_H
#define PMON_VALIDATE_VPLACE_H

#include <stddef.h>

struct vplace_ops {
	/* The NUMA node (OS index) holding socket's memory, or -1 with why. */
	int (*node_of_socket)(void *ctx, int socket, char *why, size_t len);
	/* bytes (whole pages) bound to node, every page touched; NULL with why. */
	void *(*alloc)(void *ctx, size_t bytes, int node, char *why, size_t len);
	void (*free)(void *ctx, void *p, size_t bytes);
	/* How many pages of [p, p + bytes) are not on node; -1 with why when
	 * the system cannot tell. */
	long (*misplaced)(void *ctx, const void *p, size_t bytes, int node, char *why, size_t len);
	/* Bind the calling thread to CPU cpu (OS index); 0 or -1 with why. */
	int (*bind_thread)(void *ctx, int cpu, char *why, size_t len);
	void *ctx;
};

/* The hwloc implementation, on topology source (NULL: this machine;
 * "xml:PATH" or "synthetic:DESC" as PMON_TOPOLOGY).  0, or -1 with why. */
int vplace_hwloc_open(struct vplace_ops *ops, const char *source, char *why, size_t len);
void vplace_hwloc_close(struct vplace_ops *ops);

#endif
