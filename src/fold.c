/* fold.c - the machine's fold thread and tick (see fold.h). */
#define _GNU_SOURCE
#include <errno.h>
#include <time.h>

#include "pmon/pmon.h"
#include "fold.h"
#include "clock.h"

uint64_t pmon_fold_bound_ns(int width)
{
	/* 2^width / (hz * inc) seconds, in ns, without overflow */
	unsigned __int128 ns = ((unsigned __int128)1 << width) * 1000000000u;
	return (uint64_t)(ns / ((unsigned __int128)PMON_FOLD_MAX_HZ * PMON_FOLD_MAX_INC));
}

uint64_t pmon_fold_period_ns(int width) { return pmon_fold_bound_ns(width) / 8; }

uint64_t pmon_clock_ns(struct pmon_access *a)
{
	return a && a->ops->clock_ns ? a->ops->clock_ns(a) : pmon_mono_ns();
}

void pmon_fold_init(struct pmon_fold *f, struct pmon_access *a, void (*fn)(void *arg), void *arg)
{
	pthread_condattr_t ca;
	pthread_condattr_init(&ca);
	pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
	pthread_cond_init(&f->cv, &ca);
	pthread_condattr_destroy(&ca);
	pthread_mutex_init(&f->mu, NULL);
	f->started = f->stop = 0;
	f->period_ns = 0;
	f->acc = a;
	f->fn = fn;
	f->arg = arg;
}

static void *fold_thread(void *arg)
{
	struct pmon_fold *f = arg;
	pthread_mutex_lock(&f->mu);
	while (!f->stop) {
		struct timespec ts;
		uint64_t t = pmon_mono_ns() + f->period_ns;
		ts.tv_sec = (time_t)(t / 1000000000u);
		ts.tv_nsec = (long)(t % 1000000000u);
		int rc = 0;
		while (!f->stop && rc != ETIMEDOUT)
			rc = pthread_cond_timedwait(&f->cv, &f->mu, &ts);
		if (f->stop)
			break;
		pthread_mutex_unlock(&f->mu);
		f->fn(f->arg);
		pthread_mutex_lock(&f->mu);
	}
	pthread_mutex_unlock(&f->mu);
	return NULL;
}

int pmon_fold_need(struct pmon_fold *f, uint64_t period_ns)
{
	int rc = PMON_OK;
	pthread_mutex_lock(&f->mu);
	if (f->period_ns && f->period_ns <= period_ns) {
		pthread_mutex_unlock(&f->mu);
		return PMON_OK;
	}
	f->period_ns = period_ns;
	if (f->acc->ops->set_tick)
		rc = f->acc->ops->set_tick(f->acc, period_ns, f->fn, f->arg);
	if (rc == PMON_OK && !f->started) {
		if (pthread_create(&f->thread, NULL, fold_thread, f) == 0)
			f->started = 1;
		else
			rc = PMON_ENOMEM;
	}
	pthread_cond_signal(&f->cv);
	pthread_mutex_unlock(&f->mu);
	return rc;
}

void pmon_fold_fini(struct pmon_fold *f)
{
	pthread_mutex_lock(&f->mu);
	f->stop = 1;
	pthread_cond_signal(&f->cv);
	int started = f->started;
	pthread_mutex_unlock(&f->mu);
	if (started)
		pthread_join(f->thread, NULL);
	if (f->period_ns && f->acc && f->acc->ops->set_tick)
		f->acc->ops->set_tick(f->acc, 0, NULL, NULL);
	pthread_cond_destroy(&f->cv);
	pthread_mutex_destroy(&f->mu);
}
