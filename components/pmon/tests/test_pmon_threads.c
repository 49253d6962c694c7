/* test_pmon_threads.c - PAPI_shutdown from one thread while another thread's
 * event set still counts: the component stops it and restores every register
 * it changed (the emulator's registers are back to their earlier values). */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "papi.h"
#include "check.h"
#include "access.h"
#include "pmon/sim.h"

/* The reason a register access gives when it fails. */
static char op_why[256];

/* The worker's event set is deliberately never destroyed: PAPI_shutdown in
 * another thread is the situation under test, and PAPI does not free other
 * threads' event sets then.  Under LeakSanitizer, those PAPI allocations are
 * expected. */
const char *__lsan_default_suppressions(void);
const char *__lsan_default_suppressions(void)
{
	return "leak:create_EventSet\nleak:_papi_hwi_assign_eventset\n";
}

static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cv = PTHREAD_COND_INITIALIZER;
static int started, done;

static void *worker(void *arg)
{
	int es = PAPI_NULL;
	(void)arg;
	PAPI_register_thread();
	PAPI_create_eventset(&es);
	int rc = PAPI_add_named_event(es, "pmon:::snbep_unc_cbo0::UNC_C_CLOCKTICKS:socket=0");
	if (rc == PAPI_OK)
		rc = PAPI_start(es);
	pthread_mutex_lock(&mu);
	started = rc == PAPI_OK ? 1 : -1;
	pthread_cond_broadcast(&cv);
	while (!done)
		pthread_cond_wait(&cv, &mu);
	pthread_mutex_unlock(&mu);
	return NULL;
}

int main(void)
{
	char err[256];
	setenv("PMON_BACKEND", "sim", 1);
	setenv("PMON_SIM", "clock=manual", 1);
	setenv("PMON_QUIET", "1", 1);
	CHECK_EQ_INT(PAPI_library_init(PAPI_VER_CURRENT), PAPI_VER_CURRENT, "PAPI init");
	CHECK_EQ_INT(PAPI_thread_init((unsigned long (*)(void))pthread_self), PAPI_OK, "thread init");
	struct pmon_access *a;
	CHECK_EQ_INT(pmon_sim_access_open(&a, err, sizeof(err)), 0, err);
	uint64_t ctl_before, ctl_running, ctl_after;
	a->ops->msr_read(a, 0, 0xd10, &ctl_before, op_why, sizeof op_why);
	pthread_t t;
	pthread_create(&t, NULL, worker, NULL);
	pthread_mutex_lock(&mu);
	while (!started)
		pthread_cond_wait(&cv, &mu);
	pthread_mutex_unlock(&mu);
	CHECK_EQ_INT(started, 1, "the worker's event set counts");
	a->ops->msr_read(a, 0, 0xd10, &ctl_running, op_why, sizeof op_why);
	CHECK_EQ_U64(ctl_running, 0x400000, "CBo 0 counter 0 enabled by the worker");
	PAPI_shutdown();
	a->ops->msr_read(a, 0, 0xd10, &ctl_after, op_why, sizeof op_why);
	CHECK_EQ_U64(ctl_after, ctl_before, "shutdown restored the worker's counter control");
	pthread_mutex_lock(&mu);
	done = 1;
	pthread_cond_broadcast(&cv);
	pthread_mutex_unlock(&mu);
	pthread_join(t, NULL);
	a->ops->close(a);
	return check_done("test_pmon_threads");
}
