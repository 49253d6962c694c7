/*
 * pmon_native.c - the pmon component's native events: a table of names
 * whose index is the event code.  The base events (PMU::EVENT for each box
 * instance present) are made at init; umask, modifier and socket rows while
 * PAPI enumerates them; full names when users ask for them (libpmon
 * encodes them, perf's and Intel's names too).  Each row's description
 * and unit are libpmon's.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <pthread.h>

#include "papi.h"
#include "papi_internal.h"

#include "pmon/pmon.h"
#include "pmon_cmp.h"

enum entry_kind { ENT_BASE, ENT_UMASK, ENT_MOD, ENT_SOCKET, ENT_FULL };

struct entry {
	enum entry_kind kind;
	int pmu, event, sub;      /* sub: umask index, modifier index or socket */
	char *name;               /* without the "pmon:::" prefix */
	char *desc;
};

static struct entry *entries;
static int nentries, capentries, nbase;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

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
	for (int s = 0; s < pmon_machine_nsockets(pmon_cmp_machine); s++)
		if (pmon_machine_pmu_present(pmon_cmp_machine, pmu, s))
			return 1;
	return 0;
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
		snprintf(buf, len, " [%d counters per CPU; %d offcore event%s per %s]", pi->ncounters,
			 pi->offcore_regs, pi->offcore_regs == 1 ? "" : "s",
			 !pi->offcore_per_core ? "CPU" : pi->offcore_regs == 1 ?
			 "core: its hyperthreads share the register" :
			 "core: its hyperthreads share the registers");
	else if (n < pi->ncounters)
		snprintf(buf, len, " [%d of the %d counters in this box]", n, pi->ncounters);
	else
		snprintf(buf, len, " [%d counters in this box]", pi->ncounters);
}

static int build_base_events(void)
{
	int npmu = pmon_pmu_count();
	char name[PAPI_HUGE_STR_LEN], desc[PAPI_HUGE_STR_LEN], note[128];
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
				 (!ei.modeled && !strcmp(pmon_machine_backend(pmon_cmp_machine), "sim")) ?
				 " [not modeled by the emulated machine]" : "");
			if (add_entry(ENT_BASE, p, e, 0, name, desc) < 0)
				return PAPI_ENOMEM;
		}
	}
	nbase = nentries;
	return PAPI_OK;
}

int pmon_cmp_build_events(void)
{
	pthread_mutex_lock(&lock);
	int rc = build_base_events();
	pthread_mutex_unlock(&lock);
	return rc ? rc : nbase;
}

void pmon_cmp_free_events(void)
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
}

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
	return ei.numasks + nmods + (pi.per_cpu ? 0 : pmon_machine_nsockets(pmon_cmp_machine));
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
			 (!ui.modeled && !strcmp(pmon_machine_backend(pmon_cmp_machine), "sim")) ?
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
				 pmon_machine_ncpus(pmon_cmp_machine) - 1);
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

int pmon_cmp_ntv_enum_events(unsigned *code, int modifier)
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

int pmon_cmp_ntv_name_to_code(const char *name, unsigned *code)
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
	int rc = pmon_machine_encode_all(pmon_cmp_machine, name, encs, PMON_MAX_INSTANCES, err, sizeof(err));
	if (rc < 0) {
		pmon_cmp_complain(err);
		return pmon_cmp_to_papi(rc);
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

int pmon_cmp_entry_copy(unsigned code, char *name, int nlen, char *desc, int dlen)
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

int pmon_cmp_ntv_code_to_name(unsigned code, char *name, int len)
{
	return pmon_cmp_entry_copy(code, name, len, NULL, 0);
}

int pmon_cmp_ntv_code_to_descr(unsigned code, char *desc, int len)
{
	return pmon_cmp_entry_copy(code, NULL, 0, desc, len);
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

int pmon_cmp_ntv_code_to_info(unsigned code, PAPI_event_info_t *info)
{
	int rc = pmon_cmp_entry_copy(code, info->symbol, sizeof(info->symbol), info->long_descr,
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
