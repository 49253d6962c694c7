/*
 * gen_snbep_lock.c - bus locks on the SNB-EP uncore, as data (vspec.h).
 * A locked read-modify-write whose operand spans two cache lines cannot be
 * done in the core's cache: the core asks the uncore for a bus lock, and
 * the UBox of its socket counts each sequence started (LOCK_CYCLES, the
 * guide's "number of times an IDI Lock/SplitLock sequence was started";
 * despite the name, sequences, not cycles).  A locked operation within one
 * line is a cache lock, no sequence.  So, n locked adds from one thread of
 * the socket:
 *   lock-split    each across a line boundary: LOCK_CYCLES = n;
 *   lock-aligned  each within a line: LOCK_CYCLES = 0.
 * On silicon other agents' bus locks (rare: Linux warns about split locks)
 * add to the count.
 */
#include "vgen.h"
#include "vspec.h"

int snbep_lock(const struct vgeom *g, const struct lock_case *k, struct vxset *x)
{
	int s = k->socket, r = k->remote, rc;
	const struct vspec_on on = { k->brk, k->hw,
		{ 1, 1.05, "silicon: other agents' bus locks in the socket meanwhile add a few "
		  "(Linux warns about split locks: rare)" }, (double)k->n, "locks" };
	/* --break=lock: the lock counted in the other socket's UBox (which
	 * sees none; with one socket, an interrupt event instead) */
	char bfmt[96];
	if (r != s)
		snprintf(bfmt, sizeof(bfmt), "snbep_unc_ubo::UNC_U_LOCK_CYCLES:socket=%d", r);
	else
		snprintf(bfmt, sizeof(bfmt), "snbep_unc_ubo::UNC_U_EVENT_MSG:IPI_RCVD:socket=%d", s);
	const struct vspec split[] = {
		{ VS_ONE, "snbep_unc_ubo::UNC_U_LOCK_CYCLES:socket=%d", s, 1,
		  "UBox LOCK_CYCLES (split locks)", VS_EXACT, VB_LOCK, bfmt },
	};
	const struct vspec aligned[] = {
		{ VS_ONE, "snbep_unc_ubo::UNC_U_LOCK_CYCLES:socket=%d", s, 0,
		  "UBox LOCK_CYCLES (locks within a line)", VS_EXACT, VB_NONE, NULL },
	};
	vx_init(x);
	if ((rc = vspec_win(g, x, "lock-split", 1, 0, split, 1, &on)) != 0)
		return rc;
	return vspec_win(g, x, "lock-aligned", 0, 0, aligned, 1, &on);
}
