/*
 * kern_chase.c - the pointer chase, written once (see kern.h): one load per
 * hop, each hop's address the value the previous load returned.
 */
#include "kern.h"

struct chase_el *KERN(chase)(struct kfeed *f, const struct karr *X, struct chase_el *p,
			     uint64_t hops)
{
	(void)X;
	KSTART(f);
	for (uint64_t h = 0; h < hops; h++) {
		KTOUCH(f, 0, X, p, K_LOAD);
		p = p->next;
	}
	KDONE(f);
	return p;
}
