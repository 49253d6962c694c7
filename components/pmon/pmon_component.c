/*
 * pmon_component.c - the PAPI component "pmon": SNB-EP uncore boxes and
 * offcore-response events as PAPI native events.
 *
 * All logic lives in libpmon; this file maps PAPI's calls onto it:
 *   event codes   an index into a table of names: the base events
 *                 (PMU::EVENT for each box instance present), created at
 *                 init, then umask/modifier/socket entries created while
 *                 PAPI enumerates them, and full names users ask for;
 *   event sets    one pmon session each.
 * A name that libpmon refuses is reported on stderr with libpmon's reason
 * (set PMON_QUIET=1 to silence it) and returns a PAPI error code.
 *
 * What papi_native_avail shows: the component's counter count is the number
 * of counters the machine really has (every box on every socket, fixed
 * counters included, two offcore events per CPU); each base event says how
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
#include <pthread.h>

#include "papi.h"
#include "papi_internal.h"
#include "papi_vector.h"
#include "papi_memory.h"

#include "pmon/pmon.h"

papi_vector_t _pmon_vector;

/* Events one set may hold: more than the counters of a two-socket machine */
#define PMON_CMP_MAX_EVENTS 512

enum entry_kind { ENT_BASE, ENT_UMASK, ENT_MOD, ENT_SOCKET, ENT_FULL };

struct entry {
	enum entry_kind kind;
	int pmu, event, sub;      /* sub: umask index, modifier index or socket */
	char *name;               /* without the "pmon:::" prefix */
	char *desc;
};

static struct entry *entries;
static int nentries, capentries, nbase;
static pmon_machine_t *machine;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

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

static int to_papi(int rc)
{
	switch (rc) {
	case PMON_OK: return PAPI_OK;
	case PMON_ENOEVNT: return PAPI_ENOEVNT;
	case PMON_EUMASK: case PMON_EQUAL: case PMON_ERANGE: return PAPI_EATTR;
	/* another process or agent holds the box: a conflict, whose message
	 * (printed by the caller) names the holder */
	case PMON_ECONFLICT: case PMON_EBUSY: return PAPI_ECNFLCT;
	case PMON_EPERM: return PAPI_EPERM;
	case PMON_ENOMEM: return PAPI_ENOMEM;
	case PMON_ENOTMODELED: case PMON_ENOSUPP: case PMON_ENODEV: return PAPI_ENOSUPP;
	case PMON_EIO: return PAPI_ESYS;
	case PMON_ESTALE: return PAPI_EMISC;   /* no total: a wrap may have been missed */
	default: return PAPI_EINVAL;
	}
}

static void complain(const char *msg)
{
	const char *q = getenv("PMON_QUIET");
	if (!q || !*q || !strcmp(q, "0"))
		fprintf(stderr, "pmon: %s\n", msg);
}

/* Append an entry; returns its index or -1. Caller holds lock. */
static int add_entry(enum entry_kind kind, int pmu, int event, int sub,
		     const char *name, const char *desc)
{
	if (nentries == capentries) {
		int cap = capentries ? capentries * 2 : 1024;
		struct entry *ne = realloc(entries, sizeof(*ne) * (size_t)cap);
		if (!ne)
			return -1;
		entries = ne;
		capentries = cap;
	}
	struct entry *e = &entries[nentries];
	e->kind = kind;
	e->pmu = pmu;
	e->event = event;
	e->sub = sub;
	e->name = strdup(name);
	e->desc = strdup(desc ? desc : "");
	if (!e->name || !e->desc) {
		free(e->name);
		free(e->desc);
		return -1;
	}
	return nentries++;
}

static int is_option(enum entry_kind k)
{
	return k == ENT_UMASK || k == ENT_MOD || k == ENT_SOCKET;
}

/* The entry of this name among the options (options 1) or the others (0). */
static int find_entry(const char *name, int options)
{
	for (int i = 0; i < nentries; i++)
		if (is_option(entries[i].kind) == options && !strcmp(entries[i].name, name))
			return i;
	return -1;
}

static int pmu_present_anywhere(int pmu)
{
	for (int s = 0; s < pmon_machine_nsockets(machine); s++)
		if (pmon_machine_pmu_present(machine, pmu, s))
			return 1;
	return 0;
}

/* Counters the machine offers: every present box's general and fixed
 * counters on every socket, and two offcore events (RSP_0/1) per CPU. */
static int machine_counters(void)
{
	int n = 0;
	for (int p = 0; p < pmon_pmu_count(); p++) {
		pmon_pmu_info_t pi;
		pmon_pmu_get(p, &pi);
		if (pi.per_cpu) {
			n += pmu_present_anywhere(p) ? 2 * pmon_machine_ncpus(machine) : 0;
			continue;
		}
		for (int s = 0; s < pmon_machine_nsockets(machine); s++)
			if (pmon_machine_pmu_present(machine, p, s))
				n += pi.ncounters + (pi.has_fixed ? 1 : 0);
	}
	return n;
}

/* "[4 counters in this box]", "[the box's fixed counter]", ... */
static void counters_note(const pmon_pmu_info_t *pi, const pmon_event_info_t *ei,
			  char *buf, size_t len)
{
	int n = 0;
	for (uint32_t m = ei->cntmask; m; m &= m - 1)
		n++;
	if (ei->fixed)
		snprintf(buf, len, " [the box's fixed counter]");
	else if (pi->per_cpu)
		snprintf(buf, len, " [%d counters per CPU; 2 offcore events per CPU]", pi->ncounters);
	else if (n < pi->ncounters)
		snprintf(buf, len, " [%d of the %d counters in this box]", n, pi->ncounters);
	else
		snprintf(buf, len, " [%d counters in this box]", pi->ncounters);
}

static int build_base_events(void)
{
	int npmu = pmon_pmu_count();
	char name[PAPI_HUGE_STR_LEN], desc[PAPI_HUGE_STR_LEN], note[64];
	for (int p = 0; p < npmu; p++) {
		pmon_pmu_info_t pi;
		pmon_pmu_get(p, &pi);
		if (!pmu_present_anywhere(p))
			continue;
		for (int e = 0; e < pmon_event_count(p); e++) {
			pmon_event_info_t ei;
			pmon_event_get(p, e, &ei);
			counters_note(&pi, &ei, note, sizeof(note));
			snprintf(name, sizeof(name), "%s::%s", pi.name, ei.name);
			snprintf(desc, sizeof(desc), "%s%s%s", ei.desc, note,
				 (!ei.modeled && !strcmp(pmon_machine_backend(machine), "sim")) ?
				 " [not modeled by the emulated machine]" : "");
			if (add_entry(ENT_BASE, p, e, 0, name, desc) < 0)
				return PAPI_ENOMEM;
		}
	}
	nbase = nentries;
	return PAPI_OK;
}

/* ---------------------------------------------------------------- init */

static int _pmon_init_component(int cidx)
{
	char why[PAPI_HUGE_STR_LEN];
	int rc = pmon_machine_open(&machine, NULL, why, sizeof(why));

	_pmon_vector.cmp_info.CmpIdx = cidx;
	if (rc) {
		snprintf(_pmon_vector.cmp_info.disabled_reason, PAPI_HUGE_STR_LEN, "%s", why);
		_pmon_vector.cmp_info.disabled = PAPI_ECMP;
		return PAPI_ECMP;
	}
	pthread_mutex_lock(&lock);
	rc = build_base_events();
	pthread_mutex_unlock(&lock);
	if (rc) {
		snprintf(_pmon_vector.cmp_info.disabled_reason, PAPI_HUGE_STR_LEN,
			 "out of memory building the event table");
		_pmon_vector.cmp_info.disabled = rc;
		return rc;
	}
	if (pmon_machine_warnings(machine)[0])
		complain(pmon_machine_warnings(machine));
	_pmon_vector.cmp_info.num_native_events = nbase;
	int ncntrs = machine_counters();
	_pmon_vector.cmp_info.num_cntrs = ncntrs < PMON_CMP_MAX_EVENTS ? ncntrs : PMON_CMP_MAX_EVENTS;
	_pmon_vector.cmp_info.num_mpx_cntrs = _pmon_vector.cmp_info.num_cntrs;
	snprintf(_pmon_vector.cmp_info.description, PAPI_MAX_STR_LEN,
		 "SNB-EP uncore and offcore response (%s backend)", pmon_machine_backend(machine));
	_pmon_vector.cmp_info.disabled = PAPI_OK;
	_pmon_vector.cmp_info.disabled_reason[0] = 0;
	return PAPI_OK;
}

static int _pmon_shutdown_component(void)
{
	pthread_mutex_lock(&lock);
	for (int i = 0; i < nentries; i++) {
		free(entries[i].name);
		free(entries[i].desc);
	}
	free(entries);
	entries = NULL;
	nentries = capentries = nbase = 0;
	pthread_mutex_unlock(&lock);
	pmon_machine_close(machine);
	machine = NULL;
	return PAPI_OK;
}

static int _pmon_init_thread(hwd_context_t *ctx) { (void)ctx; return PAPI_OK; }
static int _pmon_shutdown_thread(hwd_context_t *ctx) { (void)ctx; return PAPI_OK; }

/* ---------------------------------------------------------------- names */

/* The options enumerated under a base event: its umasks, its modifiers
 * (socket/cpu qualifiers excluded) and one socket=N per socket. */
static int noptions(int pmu, int ev, int *nmods_out)
{
	pmon_event_info_t ei;
	pmon_pmu_info_t pi;
	pmon_event_get(pmu, ev, &ei);
	pmon_pmu_get(pmu, &pi);
	/* uncore: socket= and cpu= are left out (one socket=N row per socket
	 * follows); a core PMU keeps its cpu= row, which it requires */
	int nmods = pmon_mod_count(pmu, ev) - (pi.per_cpu ? 0 : 2);
	*nmods_out = nmods;
	return ei.numasks + nmods + (pi.per_cpu ? 0 : pmon_machine_nsockets(machine));
}

/* Create (or find) the k-th option entry of base entry b. Caller holds lock. */
static int option_entry(int b, int k)
{
	const struct entry *base = &entries[b];
	int pmu = base->pmu, ev = base->event, nmods;
	int nopt = noptions(pmu, ev, &nmods);
	char name[PAPI_HUGE_STR_LEN], desc[PAPI_HUGE_STR_LEN];
	pmon_event_info_t ei;
	pmon_event_get(pmu, ev, &ei);
	if (k < 0 || k >= nopt)
		return -1;
	enum entry_kind kind;
	int sub;
	/* papi_native_avail shows what follows "masks:" as a qualifier's text */
	size_t pre = (size_t)snprintf(desc, sizeof(desc), "%s masks:", ei.desc);
	if (pre >= sizeof(desc))
		pre = sizeof(desc) - 1;
	char *d = desc + pre;
	size_t dlen = sizeof(desc) - pre;
	if (k < ei.numasks) {
		pmon_umask_info_t ui;
		pmon_umask_get(pmu, ev, k, &ui);
		snprintf(name, sizeof(name), "%s:%s", base->name, ui.name);
		snprintf(d, dlen, "%s%s%s", ui.desc, ui.is_default ? " (default)" : "",
			 (!ui.modeled && !strcmp(pmon_machine_backend(machine), "sim")) ?
			 " [not modeled by the emulated machine]" : "");
		kind = ENT_UMASK;
		sub = k;
	} else if (k < ei.numasks + nmods) {
		pmon_mod_info_t mi;
		sub = k - ei.numasks;
		pmon_mod_get(pmu, ev, sub, &mi);
		snprintf(name, sizeof(name), "%s:%s=%llu", base->name, mi.name,
			 (unsigned long long)mi.min);
		if (!strcmp(mi.name, "cpu"))
			snprintf(d, dlen, "required: the CPU to count on (0-%d on this machine)",
				 pmon_machine_ncpus(machine) - 1);
		else
			snprintf(d, dlen, "%s (%llu-%llu)", mi.desc,
				 (unsigned long long)mi.min, (unsigned long long)mi.max);
		kind = ENT_MOD;
	} else {
		sub = k - ei.numasks - nmods;
		snprintf(name, sizeof(name), "%s:socket=%d", base->name, sub);
		snprintf(d, dlen, "count the box of socket %d", sub);
		kind = ENT_SOCKET;
	}
	int i = find_entry(name, 1);
	if (i >= 0)
		return i;
	i = add_entry(kind, pmu, ev, sub, name, desc);
	if (i >= 0)
		entries[i].sub = k;    /* remember the option's position */
	return i;
}

/* The base entry of event ev of pmu, or -1. */
static int base_index(int pmu, int ev)
{
	for (int b = 0; b < nbase; b++)
		if (entries[b].pmu == pmu && entries[b].event == ev)
			return b;
	return -1;
}

static int base_of(int code)
{
	const struct entry *e = &entries[code];
	return e->kind == ENT_BASE ? code : base_index(e->pmu, e->event);
}

static int _pmon_ntv_enum_events(unsigned *code, int modifier)
{
	int rc = PAPI_ENOEVNT;
	pthread_mutex_lock(&lock);
	int c = (int)(*code & PAPI_NATIVE_AND_MASK);
	switch (modifier) {
	case PAPI_ENUM_FIRST:
		if (nbase > 0) {
			*code = 0;
			rc = PAPI_OK;
		}
		break;
	case PAPI_ENUM_EVENTS: {
		/* next base event after c's base */
		int b = (c >= 0 && c < nentries) ? base_of(c) : -1;
		if (b >= 0 && b + 1 < nbase) {
			*code = (unsigned)(b + 1);
			rc = PAPI_OK;
		}
		break;
	}
	case PAPI_NTV_ENUM_UMASKS: {
		if (c < 0 || c >= nentries || entries[c].kind == ENT_FULL)
			break;
		int b = base_of(c);
		int k = entries[c].kind == ENT_BASE ? 0 : entries[c].sub + 1;
		int i = b >= 0 ? option_entry(b, k) : -1;
		if (i >= 0) {
			*code = (unsigned)i;
			rc = PAPI_OK;
		}
		break;
	}
	default:
		rc = PAPI_EINVAL;
	}
	pthread_mutex_unlock(&lock);
	return rc;
}

static int _pmon_ntv_name_to_code(const char *name, unsigned *code)
{
	pmon_encoding_t encs[PMON_MAX_INSTANCES], enc;
	char err[512];
	if (!strncmp(name, "pmon:::", 7))
		name += 7;
	pthread_mutex_lock(&lock);
	int i = find_entry(name, 0);
	if (i >= 0) {
		*code = (unsigned)i;
		pthread_mutex_unlock(&lock);
		return PAPI_OK;
	}
	pthread_mutex_unlock(&lock);
	int rc = pmon_machine_encode_all(machine, name, encs, PMON_MAX_INSTANCES, err, sizeof(err));
	if (rc < 0) {
		complain(err);
		return to_papi(rc);
	}
	enc = encs[0];
	pthread_mutex_lock(&lock);
	i = find_entry(name, 0);
	if (i < 0) {
		/* the description its base event shows: its counters, and
		 * whether the emulated machine models it */
		int b = base_index(enc.pmu, enc.event);
		i = add_entry(ENT_FULL, enc.pmu, enc.event, 0, name, b >= 0 ? entries[b].desc : "");
	}
	pthread_mutex_unlock(&lock);
	if (i < 0)
		return PAPI_ENOMEM;
	*code = (unsigned)i;
	return PAPI_OK;
}

static int entry_copy(unsigned code, char *name, int nlen, char *desc, int dlen)
{
	int rc = PAPI_OK;
	pthread_mutex_lock(&lock);
	int c = (int)(code & PAPI_NATIVE_AND_MASK);
	if (c < 0 || c >= nentries)
		rc = PAPI_ENOEVNT;
	else {
		if (name)
			snprintf(name, (size_t)nlen, "%s", entries[c].name);
		if (desc)
			snprintf(desc, (size_t)dlen, "%s", entries[c].desc);
	}
	pthread_mutex_unlock(&lock);
	return rc;
}

static int _pmon_ntv_code_to_name(unsigned code, char *name, int len)
{
	return entry_copy(code, name, len, NULL, 0);
}

static int _pmon_ntv_code_to_descr(unsigned code, char *desc, int len)
{
	return entry_copy(code, NULL, 0, desc, len);
}

/* The unit of one count of entry c (libpmon's), and perf's scale where
 * the name is perf's and perf has one; name is its full name.  A
 * modifier's row (e=, i=, t=) has none: it changes what a count is. */
static void units_of(enum entry_kind kind, int pmu, int ev, int sub, const char *name,
		     char *buf, size_t len)
{
	pmon_unit_t u = { "", 0 };
	buf[0] = 0;
	if (kind == ENT_MOD)
		return;
	if (kind == ENT_FULL) {
		pmon_encoding_t enc[PMON_MAX_INSTANCES];
		pmon_name_map_t map;
		char err[256];
		if (pmon_encode_all(name, 0, 0, enc, PMON_MAX_INSTANCES, err, sizeof(err)) < 1 ||
		    pmon_encoding_unit(&enc[0], &u) || pmon_name_map(name, &map, err, sizeof(err)))
			return;
		if (map.perf_scale > 0 && u.unit[0])
			snprintf(buf, len, "%s; perf: x%.10g %s", u.unit, map.perf_scale, map.perf_unit);
		else
			snprintf(buf, len, "%s", u.unit);
		return;
	}
	if (pmon_event_unit(pmu, ev, kind == ENT_UMASK ? sub : -1, &u) == PMON_OK)
		snprintf(buf, len, "%s", u.unit);
}

static int _pmon_ntv_code_to_info(unsigned code, PAPI_event_info_t *info)
{
	int rc = entry_copy(code, info->symbol, sizeof(info->symbol), info->long_descr,
			    sizeof(info->long_descr));
	if (rc == PAPI_OK) {
		int c = (int)(code & PAPI_NATIVE_AND_MASK);
		pthread_mutex_lock(&lock);
		enum entry_kind kind = entries[c].kind;
		int pmu = entries[c].pmu, ev = entries[c].event, sub = entries[c].sub;
		char full[PAPI_HUGE_STR_LEN];
		snprintf(full, sizeof(full), "%s", entries[c].name);
		pthread_mutex_unlock(&lock);
		/* an option row: EVENT:OPTION (papi_native_avail shows ":OPTION") */
		char *sep = is_option(kind) ? strstr(info->symbol, "::") : NULL;
		if (sep)
			memmove(info->symbol, sep + 2, strlen(sep + 2) + 1);
		units_of(kind, pmu, ev, sub, full, info->units, sizeof(info->units));
		info->value_type = PAPI_VALUETYPE_RUNNING_SUM;
		info->timescope = PAPI_TIMESCOPE_SINCE_START;
		/* the short description is the long one, cut to fit */
		size_t n = strlen(info->long_descr);
		if (n >= sizeof(info->short_descr))
			n = sizeof(info->short_descr) - 1;
		memcpy(info->short_descr, info->long_descr, n);
		info->short_descr[n] = 0;
		info->data_type = PAPI_DATATYPE_UINT64;
	}
	return rc;
}

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
	if (!c->session && pmon_session_create(machine, &c->session))
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
		if (entry_copy(code, name, sizeof(name), NULL, 0))
			return PAPI_ENOEVNT;
		/* a name of every box of a kind: one session event per box */
		int k = pmon_machine_encode_all(machine, name, enc, PMON_MAX_INSTANCES, err, sizeof(err));
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
			complain(err);
			return to_papi(rc);
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
		complain(pmon_session_errmsg(c->session));
	c->running = rc == PMON_OK;
	memset(c->values, 0, sizeof(c->values));
	return to_papi(rc);
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
		complain(pmon_session_errmsg(c->session));
		/* at run time a missing device went away: a system error */
		return rc == PMON_ENODEV ? PAPI_ESYS : to_papi(rc);
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
	return to_papi(rc);
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
			complain("pmon counts user and kernel together; only PAPI_DOM_ALL is possible");
			return PAPI_EINVAL;
		}
		return PAPI_OK;
	case PAPI_MULTIPLEX:
		complain("PAPI_set_multiplex is refused: pmon does not multiplex. Its events count "
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
	.ntv_enum_events = _pmon_ntv_enum_events,
	.ntv_name_to_code = _pmon_ntv_name_to_code,
	.ntv_code_to_name = _pmon_ntv_code_to_name,
	.ntv_code_to_descr = _pmon_ntv_code_to_descr,
	.ntv_code_to_info = _pmon_ntv_code_to_info,
};
