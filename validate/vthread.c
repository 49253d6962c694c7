/*
 * vthread.c - the kernels' threads (vrun.h): bound to their CPUs on the
 * hardware; on the emulated machine taking turns in an order fixed by the
 * seed.
 */
#include <stdlib.h>
#include <string.h>

#include <omp.h>
#include <pthread.h>

#include "vrun.h"

/* ------------------------------------------------------------- threads */
void vchunk(size_t count, int t, int n, size_t *lo, size_t *hi)
{
	size_t lines = (count + 7) / 8;
	size_t per = lines / (size_t)n, extra = lines % (size_t)n;
	size_t l0 = per * (size_t)t + ((size_t)t < extra ? (size_t)t : extra);
	size_t l1 = l0 + per + ((size_t)t < extra ? 1 : 0);
	*lo = l0 * 8 < count ? l0 * 8 : count;
	*hi = l1 * 8 < count ? l1 * 8 : count;
}

/* Turns: on the emulated machine one kernel thread runs at a time, and
 * hands the turn on after each batch it feeds, to a thread picked by a
 * generator seeded with --seed among those not waiting at a barrier nor
 * done.  The model then sees the same interleaving of the threads' batches
 * in every run of a seed: their timing on the host no longer decides which
 * line the shared LLC keeps (it did: 7 of 193 counts of the quick suite
 * moved between two runs).  When every thread left is at the barrier, all
 * pass it. */
enum { TS_RUN, TS_BARRIER, TS_DONE };
struct vturn {
	pthread_mutex_t mu;
	pthread_cond_t cv;
	int n, holder;
	int state[64];
	uint64_t rng;
};

static uint64_t turn_rand(struct vturn *tu)
{
	tu->rng ^= tu->rng >> 12;
	tu->rng ^= tu->rng << 25;
	tu->rng ^= tu->rng >> 27;
	return tu->rng * 0x2545F4914F6CDD1Dull;
}

/* Pick the next holder (lock held); releases a barrier all have reached. */
static void turn_pick(struct vturn *tu)
{
	int cand[64], m = 0, waiting = 0;
	for (int i = 0; i < tu->n; i++) {
		if (tu->state[i] == TS_RUN)
			cand[m++] = i;
		waiting += tu->state[i] == TS_BARRIER;
	}
	if (m == 0 && waiting) {
		for (int i = 0; i < tu->n; i++)
			if (tu->state[i] == TS_BARRIER) {
				tu->state[i] = TS_RUN;
				cand[m++] = i;
			}
	}
	tu->holder = m ? cand[turn_rand(tu) % (uint64_t)m] : -1;
	pthread_cond_broadcast(&tu->cv);
}

static void turn_wait(struct vturn *tu, int t)
{
	while (tu->holder != t)
		pthread_cond_wait(&tu->cv, &tu->mu);
}

/* kfeed's hook: after a batch, hand the turn on and wait for it again. */
static void turn_after_batch(struct kfeed *f)
{
	struct vturn *tu = f->turn_ctx;
	pthread_mutex_lock(&tu->mu);
	turn_pick(tu);
	turn_wait(tu, f->tid);
	pthread_mutex_unlock(&tu->mu);
}

static void turn_leave(struct vturn *tu, int t, int state)
{
	pthread_mutex_lock(&tu->mu);
	tu->state[t] = state;
	turn_pick(tu);
	if (state == TS_BARRIER)
		turn_wait(tu, t);
	pthread_mutex_unlock(&tu->mu);
}

void vbarrier(struct vctx *c, struct kfeed *f)
{
	struct vturn *tu = f->turn_ctx;
	(void)c;
	if (!f->turn) {
#pragma omp barrier
		return;
	}
	/* Feed what is buffered while holding the turn, then wait there. */
	f->turn = NULL;
	kfeed_flush(f);
	f->turn = turn_after_batch;
	turn_leave(tu, f->tid, TS_BARRIER);
}

static int vpar_run(struct vctx *c, int n, const int *cpus, vwork_fn fn, void *arg, int free_run);

int vpar(struct vctx *c, int n, const int *cpus, vwork_fn fn, void *arg)
{
	return vpar_run(c, n, cpus, fn, arg, 0);
}

int vpar_free(struct vctx *c, int n, const int *cpus, vwork_fn fn, void *arg)
{
	return vpar_run(c, n, cpus, fn, arg, 1);
}

static int vpar_run(struct vctx *c, int n, const int *cpus, vwork_fn fn, void *arg, int free_run)
{
	int err = 0, bound = 0;
	uint64_t fed = 0;
	double t0 = vnow_ns();
	struct vturn tu;

	if (c->planning)
		return 0;
	int turns = c->sim && n > 1 && n <= 64 && !free_run;
	if (turns) {
		pthread_mutex_init(&tu.mu, NULL);
		pthread_cond_init(&tu.cv, NULL);
		tu.n = n;
		for (int i = 0; i < n; i++)
			tu.state[i] = TS_RUN;
		/* Each call its own sequence, the same in every run of a seed. */
		tu.rng = (c->o.seed + 1) * 0x9e3779b97f4a7c15ull ^ ++c->vpar_calls;
		if (!tu.rng)
			tu.rng = 1;
		pthread_mutex_lock(&tu.mu);
		turn_pick(&tu);
		pthread_mutex_unlock(&tu.mu);
	}

#pragma omp parallel num_threads(n) reduction(+:fed)
	{
		int t = omp_get_thread_num();
		char why[256];
		struct kfeed *f = malloc(sizeof(*f));
		/* Hardware: the thread runs on that CPU, bound with hwloc.
		 * Emulated: the model's CPU is cpus[t]; the host thread is
		 * left where the host's scheduler puts it (pinned to host CPU
		 * t, every run's first thread, OpenMP's main one, stayed on
		 * CPU 0 for the rest of the run: runs of make check at the
		 * same time all queued there while the other CPU idled). */
		if (!f) {
#pragma omp atomic write
			err = PMON_ENOMEM;
		} else if (c->sim) {
			kfeed_init(f, c->sim, cpus[t]);
			f->tid = t;
			if (turns) {
				f->turn = turn_after_batch;
				f->turn_ctx = &tu;
			}
		} else {
			kfeed_init(f, c->sim, cpus[t]);
			if (c->place.bind_thread(c->place.ctx, cpus[t], why, sizeof(why)) != 0) {
#pragma omp critical(vpar_bind)
				snprintf(c->err, sizeof(c->err), "%s", why);
#pragma omp atomic write
				bound = -1;
			}
		}
		/* Every thread runs the kernel or none does (kernels may
		 * wait for each other at barriers). */
#pragma omp barrier
		if (f && !err && !bound) {
			/* Turns (emulated): wait for this thread's first one,
			 * after the barrier above (its holder must reach it). */
			if (turns) {
				pthread_mutex_lock(&tu.mu);
				turn_wait(&tu, t);
				pthread_mutex_unlock(&tu.mu);
			}
			fn(c, t, n, f, arg);
			f->turn = NULL;
			kfeed_flush(f);
			fed += f->fed;
			if (f->err) {
#pragma omp atomic write
				err = f->err;
			}
		}
		free(f);
		if (turns)
			turn_leave(&tu, t, TS_DONE);
	}
	if (turns) {
		pthread_mutex_destroy(&tu.mu);
		pthread_cond_destroy(&tu.cv);
	}
	c->refs_fed += fed;
	if (c->sim)
		c->model_s += (vnow_ns() - t0) * 1e-9;
	if (bound)
		return PMON_EIO;
	if (err)
		snprintf(c->err, sizeof(c->err), "feeding the memory model: %s", pmon_strerror(err));
	return err;
}

