/*
 * feed.c - the emulated build's reference buffer (kern.h): line references
 * go to the memory model in the order the kernel made them, from the
 * emulated CPU of the thread.
 */
#include <string.h>

#include <pmon/sim.h>

#include "kern.h"

void kfeed_reset_slots(struct kfeed *f)
{
	for (int i = 0; i < KF_SLOTS; i++)
		f->last[i] = ~(uint64_t)0;
}

void kfeed_init(struct kfeed *f, void *sim, int cpu)
{
	memset(f, 0, sizeof(*f));
	f->sim = sim;
	f->cpu = cpu;
	kfeed_reset_slots(f);
}

void kfeed_flush(struct kfeed *f)
{
	if (f->n == 0)
		return;
	if (f->sim) {
		int rc = pmon_sim_vtraffic_refs(f->sim, f->cpu, f->buf, f->n);
		if (rc != 0 && f->err == 0)
			f->err = rc;
	}
	f->fed += f->n;
	f->n = 0;
	if (f->turn)
		f->turn(f);
}
