/*
 * pmon_component.c - the PAPI component "pmon": SNB-EP uncore boxes and
 * offcore-response events as PAPI native events.
 *
 * All logic lives in libpmon; the component maps PAPI's calls onto it:
 *   event codes   an index into a table of names: the base events
 *                 (PMU::EVENT for each box instance present), created at
 *                 init, then umask/modifier/socket entries created while
 *                 PAPI enumerates them, and full names users ask for
 *                 (pmon_native.c);
 *   event sets    one pmon session each (this file).
 * A name that libpmon refuses is reported on stderr with libpmon's reason
 * (set PMON_QUIET=1 to silence it) and returns a PAPI error code.
 *
 * What papi_native_avail shows: the component's counter count is the number
 * of counters the machine really has (every box on every socket, fixed
 * counters included, one offcore event per RSP register of each CPU or
 * core: libpmon's pmon_machine_counters); each base event says how
 * many counters its box has.  An option row's info symbol is EVENT:OPTION,
 * so that papi_native_avail prints it as ":OPTION" under its event, the way
 * users append it; its name (PAPI_event_code_to_name) stays the full name.
 * Names that users give resolve to full entries, whose symbol is the name;
 * perf's and Intel's names are taken too (libpmon maps them), and a name of
 * every box of a kind (uncore_imc/cas_count_read/, UNC_M_CAS_COUNT.RD) is
 * one PAPI event counting the sum of the boxes.  Each row carries the unit
 * of its counts where libpmon states one ("64-byte lines", "DRAM clock
 * cycles", ...), and perf's scale where perf's name has one.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "papi.h"
#include "papi_internal.h"
#include "papi_vector.h"
#include "papi_memory.h"

#include "pmon/pmon.h"
#include "pmon_cmp.h"

papi_vector_t _pmon_vector;

/* Events one set may hold: more than the counters of a two-socket machine */
#define PMON_CMP_MAX_EVENTS 512

typedef struct {
	pmon_session_t *session;
	int n;
	int nsess;                /* session events: one per box a PAPI event counts on */
	int running;              /* the session started (a refused start is not) */
	unsigned codes[PMON_CMP_MAX_EVENTS];
	int first[PMON_CMP_MAX_EVENTS], nboxes[PMON_CMP_MAX_EVENTS];   /* its session events */
	long long values[PMON_CMP_MAX_EVENTS];
	uint64_t totals[PMON_CMP_MAX_EVENTS];   /* as the session gives them */
} pmon_control_t;

typedef struct {
	int unused;
} pmon_context_t;

/* ---------------------------------------------------------------- init */

static int _pmon_init_component(int cidx)
{
	char why[PAPI_HUGE_STR_LEN];
	int rc = pmon_machine_open(&pmon_cmp_machine, NULL, why, sizeof(why));

	_pmon_vector.cmp_info.CmpIdx = cidx;
	if (rc) {
		snprintf(_pmon_vector.cmp_info.disabled_reason, PAPI_HUGE_STR_LEN, "%s", why);
		_pmon_vector.cmp_info.disabled = PAPI_ECMP;
		return PAPI_ECMP;
	}
	int nbase = pmon_cmp_build_events();
	if (nbase < 0) {
		snprintf(_pmon_vector.cmp_info.disabled_reason, PAPI_HUGE_STR_LEN,
			 "out of memory building the event table");
		_pmon_vector.cmp_info.disabled = nbase;
		return nbase;
	}
	if (pmon_machine_warnings(pmon_cmp_machine)[0])
		pmon_cmp_complain(pmon_machine_warnings(pmon_cmp_machine));
	_pmon_vector.cmp_info.num_native_events = nbase;
	int ncntrs = pmon_machine_counters(pmon_cmp_machine);
	_pmon_vector.cmp_info.num_cntrs = ncntrs < PMON_CMP_MAX_EVENTS ? ncntrs : PMON_CMP_MAX_EVENTS;
	_pmon_vector.cmp_info.num_mpx_cntrs = _pmon_vector.cmp_info.num_cntrs;
	snprintf(_pmon_vector.cmp_info.description, PAPI_MAX_STR_LEN,
		 "SNB-EP uncore and offcore response (%s backend)", pmon_machine_backend(pmon_cmp_machine));
	_pmon_vector.cmp_info.disabled = PAPI_OK;
	_pmon_vector.cmp_info.disabled_reason[0] = 0;
	return PAPI_OK;
}

static int _pmon_shutdown_component(void)
{
	pmon_cmp_free_events();
	pmon_machine_close(pmon_cmp_machine);
	pmon_cmp_machine = NULL;
	return PAPI_OK;
}

static int _pmon_init_thread(hwd_context_t *ctx) { (void)ctx; return PAPI_OK; }
static int _pmon_shutdown_thread(hwd_context_t *ctx) { (void)ctx; return PAPI_OK; }

/* ---------------------------------------------------------------- counting */

static int _pmon_init_control_state(hwd_control_state_t *ctl)
{
	/* the session is created when the first event is added */
	memset(ctl, 0, sizeof(pmon_control_t));
	return PAPI_OK;
}

static int _pmon_cleanup_eventset(hwd_control_state_t *ctl)
{
	pmon_control_t *c = (pmon_control_t *)ctl;
	pmon_session_destroy(c->session);
	c->session = NULL;
	c->n = c->nsess = 0;
	return PAPI_OK;
}

static int _pmon_update_control_state(hwd_control_state_t *ctl, NativeInfo_t *native,
				      int count, hwd_context_t *ctx)
{
	pmon_control_t *c = (pmon_control_t *)ctl;
	char err[512], name[PAPI_HUGE_STR_LEN];
	(void)ctx;
	if (count > PMON_CMP_MAX_EVENTS)
		return PAPI_ECOUNT;
	if (count == 0) {
		c->n = c->nsess = 0;
		/* an empty event set holds no session (PAPI may empty a set after
		 * cleanup_eventset has run) */
		pmon_session_destroy(c->session);
		c->session = NULL;
		return PAPI_OK;
	}
	if (!c->session && pmon_session_create(pmon_cmp_machine, &c->session))
		return PAPI_ENOMEM;
	/* PAPI passes the whole set: the events the session holds already, in
	 * the same order, stay as they are, and only the new ones are encoded
	 * and added (anything else starts the session over) */
	int keep = 0;
	if (c->n <= count && pmon_session_count(c->session) == c->nsess)
		while (keep < c->n && c->codes[keep] == (unsigned)native[keep].ni_event)
			keep++;
	if (keep < c->n) {
		pmon_session_clear(c->session);
		keep = 0;
	}
	c->n = keep;
	c->nsess = keep ? c->first[keep - 1] + c->nboxes[keep - 1] : 0;
	for (int i = 0; i < keep; i++)
		native[i].ni_position = i;
	for (int i = keep; i < count; i++) {
		pmon_encoding_t enc[PMON_MAX_INSTANCES];
		unsigned code = (unsigned)native[i].ni_event;
		if (pmon_cmp_entry_copy(code, name, sizeof(name), NULL, 0))
			return PAPI_ENOEVNT;
		/* a name of every box of a kind: one session event per box */
		int k = pmon_machine_encode_all(pmon_cmp_machine, name, enc, PMON_MAX_INSTANCES, err, sizeof(err));
		int rc = k < 0 ? k : PMON_OK;
		if (k > 0 && c->nsess + k > PMON_CMP_MAX_EVENTS)
			return PAPI_ECOUNT;
		for (int b = 0; !rc && b < k; b++)
			if ((rc = pmon_session_add(c->session, &enc[b])))
				snprintf(err, sizeof(err), "%s", pmon_session_errmsg(c->session));
		if (rc) {
			/* the session keeps the events before this one */
			if (k > 0 && pmon_session_count(c->session) != c->nsess) {
				pmon_session_clear(c->session);
				c->n = c->nsess = 0;
			}
			pmon_cmp_complain(err);
			return pmon_cmp_to_papi(rc);
		}
		native[i].ni_position = i;
		c->codes[i] = code;
		c->first[i] = c->nsess;
		c->nboxes[i] = k;
		c->nsess += k;
		c->n++;
	}
	return PAPI_OK;
}

static int _pmon_start(hwd_context_t *ctx, hwd_control_state_t *ctl)
{
	pmon_control_t *c = (pmon_control_t *)ctl;
	(void)ctx;
	if (!c->session)
		return PAPI_EINVAL;
	int rc = pmon_session_start(c->session);
	if (rc)
		pmon_cmp_complain(pmon_session_errmsg(c->session));
	c->running = rc == PMON_OK;
	memset(c->values, 0, sizeof(c->values));
	return pmon_cmp_to_papi(rc);
}

static int fetch(pmon_control_t *c, int stop)
{
	uint64_t *v = c->totals;
	if (!c->session || (stop && !c->running))
		return PAPI_OK;            /* nothing counts: no "not counting" message */
	int rc = stop ? pmon_session_stop(c->session, v) : pmon_session_read(c->session, v);
	if (stop)
		c->running = 0;
	if (rc) {
		pmon_cmp_complain(pmon_session_errmsg(c->session));
		/* at run time a missing device went away: a system error */
		return rc == PMON_ENODEV ? PAPI_ESYS : pmon_cmp_to_papi(rc);
	}
	for (int i = 0; i < c->n; i++) {
		uint64_t sum = 0;
		for (int b = 0; b < c->nboxes[i]; b++)
			sum += v[c->first[i] + b];
		c->values[i] = (long long)sum;
	}
	return PAPI_OK;
}

static int _pmon_read(hwd_context_t *ctx, hwd_control_state_t *ctl, long long **events, int flags)
{
	pmon_control_t *c = (pmon_control_t *)ctl;
	(void)ctx;
	(void)flags;
	int rc = fetch(c, 0);
	*events = c->values;
	return rc;
}

static int _pmon_stop(hwd_context_t *ctx, hwd_control_state_t *ctl)
{
	(void)ctx;
	return fetch((pmon_control_t *)ctl, 1);
}

static int _pmon_reset(hwd_context_t *ctx, hwd_control_state_t *ctl)
{
	pmon_control_t *c = (pmon_control_t *)ctl;
	(void)ctx;
	int rc = c->session ? pmon_session_reset(c->session) : PMON_OK;
	memset(c->values, 0, sizeof(c->values));
	return pmon_cmp_to_papi(rc);
}

/* Uncore boxes see every privilege level, and pmon programs the offcore
 * events for user and kernel alike: only a domain with both can be honoured. */
static int domain_ok(int domain)
{
	const int both = PAPI_DOM_USER | PAPI_DOM_KERNEL;
	return (domain & both) == both;
}

static int _pmon_ctl(hwd_context_t *ctx, int code, _papi_int_option_t *option)
{
	(void)ctx;
	switch (code) {
	case PAPI_DOMAIN:
	case PAPI_DEFDOM:
		if (!domain_ok(option->domain.domain)) {
			pmon_cmp_complain("pmon counts user and kernel together; only PAPI_DOM_ALL is possible");
			return PAPI_EINVAL;
		}
		return PAPI_OK;
	case PAPI_MULTIPLEX:
		pmon_cmp_complain("PAPI_set_multiplex is refused: pmon does not multiplex. Its events count "
			 "together on counters of their own boxes, and a time-shared uncore count "
			 "would be a scaled guess; count the events in separate event sets, or use "
			 "libpmon's metric sets (pmon_mset_*), which take turns and give each "
			 "count's share of the time");
		return PAPI_ECMP;
	case PAPI_GRANUL:
	case PAPI_DEFGRN:
		return option->granularity.granularity == PAPI_GRN_SYS ? PAPI_OK : PAPI_EINVAL;
	default:
		return PAPI_OK;
	}
}

static int _pmon_set_domain(hwd_control_state_t *ctl, int domain)
{
	(void)ctl;
	return domain_ok(domain) ? PAPI_OK : PAPI_EINVAL;
}

papi_vector_t _pmon_vector = {
	.cmp_info = {
		.name = "pmon",
		.short_name = "pmon",
		.description = "SNB-EP uncore and offcore response",
		.version = PMON_VERSION_STRING,
		.support_version = "n/a",
		.kernel_version = "n/a",
		.default_domain = PAPI_DOM_ALL,
		.available_domains = PAPI_DOM_ALL,
		.default_granularity = PAPI_GRN_SYS,
		.available_granularities = PAPI_GRN_SYS,
		.hardware_intr_sig = PAPI_INT_SIGNAL,
		.num_cntrs = PMON_CMP_MAX_EVENTS,
		.num_mpx_cntrs = PMON_CMP_MAX_EVENTS,
		/* PAPI asks the component (ctl PAPI_MULTIPLEX) only when this is
		 * set: then pmon refuses with its reason (_pmon_ctl) */
		.kernel_multiplex = 1,
	},
	.size = {
		.context = sizeof(pmon_context_t),
		.control_state = sizeof(pmon_control_t),
		.reg_value = 1,
		.reg_alloc = 1,
	},
	.init_component = _pmon_init_component,
	.shutdown_component = _pmon_shutdown_component,
	.init_thread = _pmon_init_thread,
	.shutdown_thread = _pmon_shutdown_thread,
	.init_control_state = _pmon_init_control_state,
	.cleanup_eventset = _pmon_cleanup_eventset,
	.update_control_state = _pmon_update_control_state,
	.start = _pmon_start,
	.stop = _pmon_stop,
	.read = _pmon_read,
	.reset = _pmon_reset,
	.ctl = _pmon_ctl,
	.set_domain = _pmon_set_domain,
	.ntv_enum_events = pmon_cmp_ntv_enum_events,
	.ntv_name_to_code = pmon_cmp_ntv_name_to_code,
	.ntv_code_to_name = pmon_cmp_ntv_code_to_name,
	.ntv_code_to_descr = pmon_cmp_ntv_code_to_descr,
	.ntv_code_to_info = pmon_cmp_ntv_code_to_info,
};
