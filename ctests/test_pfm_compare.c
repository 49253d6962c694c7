/*
 * test_pfm_compare.c - every encoding pmon shares with libpfm4, compared.
 *
 * For every libpfm4 snbep_unc_* PMU instance, every event, and
 *   - the event alone (its default umasks),
 *   - every umask alone, every pair of umasks (first instance of a box type),
 *   - the modifiers that matter (e i t tf cf nf ff, in range and out of it),
 *   - pmon's own modifiers that libpfm4 does not have for the event,
 *   - a few strings both must refuse (unknown umask, foreign modifiers),
 * the same string is encoded by libpfm4 (LIBPFM_ENCODE_INACTIVE=1,
 * PFM_OS_NONE) and by pmon_encode(), and the control word, the filter words
 * and what is refused are compared.  The core-PMU offcore-response events of
 * every core PMU pmon has (snb_ep, ...) get the same treatment, with the
 * libpfm4 EN and INT bits masked off and codes[1] compared with the
 * response MSR value.
 *
 * Every difference must be a row of the divergence table (divergences.c);
 * a row must describe exactly the difference seen, and every row must still
 * be a real difference (a fixed row fails here and must be removed).
 */
#define _POSIX_C_SOURCE 200809L
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <perfmon/pfmlib.h>

#include "pmon/pmon.h"
#include "check.h"
#include "divergences.h"

#define CORE_EN   (1ull << 22)
#define CORE_INT  (1ull << 20)

static int n_compared, n_equal, n_divergent, n_unexplained;
static int n_refused_both;
static int *row_hits;
static int verbose;

struct pfm_res {
	int ret;
	int count;
	uint64_t codes[8];
};

static void pfm_enc(const char *s, struct pfm_res *r)
{
	pfm_pmu_encode_arg_t arg;
	memset(r, 0, sizeof(*r));
	memset(&arg, 0, sizeof(arg));
	arg.size = sizeof(arg);
	arg.codes = r->codes;
	arg.count = 8;
	r->ret = pfm_get_os_event_encoding(s, PFM_PLM0 | PFM_PLM3, PFM_OS_NONE, &arg);
	r->count = r->ret == PFM_SUCCESS ? arg.count : 0;
}

/* Compare one string.  core: the PMU is a core PMU (pmon needs :cpu=0).
 * Returns the observed difference kind (0 = none). */
static int compare(const char *s, int core)
{
	struct pfm_res pr;
	pmon_encoding_t pe;
	char err[256], pstr[PMON_MAX_NAME * 2];
	int kind = 0;

	pfm_enc(s, &pr);
	snprintf(pstr, sizeof(pstr), "%s%s", s, core ? ":cpu=0" : "");
	int mr = pmon_encode(pstr, 0, 0, &pe, err, sizeof(err));
	int pok = pr.ret == PFM_SUCCESS, mok = mr == PMON_OK;
	uint64_t pctl = 0, pf[3] = { 0, 0, 0 }, mf[3] = { 0, 0, 0 };

	if (pok && mok) {
		pctl = pr.codes[0];
		if (core) {
			pctl &= ~(CORE_EN | CORE_INT);
			pf[0] = pr.count > 1 ? pr.codes[1] : 0;
			mf[0] = pe.filt[0] | pe.filt[1] | pe.filt[2] | pe.filt[3];
		} else {
			for (int i = 0; i < 3; i++)
				pf[i] = pr.count > i + 1 ? pr.codes[i + 1] : 0;
			mf[0] = pe.filt[0];
			mf[1] = pe.filt[1];
			mf[2] = pe.filt[2] | pe.filt[3];
		}
		if (pctl != pe.ctl)
			kind |= DIV_CTL;
		if (pf[0] != mf[0] || pf[1] != mf[1] || pf[2] != mf[2])
			kind |= DIV_FILTER;
	} else if (pok && !mok) {
		kind = DIV_PMON_REFUSES;
	} else if (!pok && mok) {
		kind = DIV_PMON_ACCEPTS;
	} else {
		n_refused_both++;
	}

	n_compared++;
	unsigned long long fx = (pf[0] ^ mf[0]) | (pf[1] ^ mf[1]) | (pf[2] ^ mf[2]);
	int row = div_find_pfm(s, kind, err, fx);
	if (!kind) {
		n_equal++;
		CHECK(row < 0 || strchr(pmon_divergences[row].match, '*'), "divergence row %d (%s) covers '%s', which libpfm4 and pmon now "
		      "encode alike: remove the row", row, row >= 0 ? pmon_divergences[row].match : "", s);
		if (verbose)
			printf("  equal %s\n", s);
		return 0;
	}
	char detail[600];
	if (kind == DIV_PMON_REFUSES)
		snprintf(detail, sizeof(detail), "libpfm4 ctl=0x%" PRIx64 "%s; pmon refuses: %s",
			 pr.codes[0], pr.count > 1 ? " (+filter)" : "", err);
	else if (kind == DIV_PMON_ACCEPTS)
		snprintf(detail, sizeof(detail), "libpfm4 refuses (%s); pmon ctl=0x%" PRIx64
			 " filt=0x%" PRIx64 ",0x%" PRIx64, pfm_strerror(pr.ret), pe.ctl, pe.filt[0], pe.filt[1]);
	else
		snprintf(detail, sizeof(detail), "libpfm4 ctl=0x%" PRIx64 " filt=0x%" PRIx64 ",0x%" PRIx64
			 ",0x%" PRIx64 "; pmon ctl=0x%" PRIx64 " filt=0x%" PRIx64 ",0x%" PRIx64 ",0x%" PRIx64,
			 pctl, pf[0], pf[1], pf[2], pe.ctl, mf[0], mf[1], mf[2]);
	if (row < 0) {
		n_unexplained++;
		CHECK(0, "UNEXPLAINED %s: %s: %s", s, div_kind_name(kind), detail);
		return kind;
	}
	if ((int)pmon_divergences[row].kind != kind) {
		n_unexplained++;
		CHECK(0, "divergence row '%s' says '%s' but '%s' shows '%s': %s",
		      pmon_divergences[row].match, div_kind_name(pmon_divergences[row].kind), s,
		      div_kind_name(kind), detail);
		return kind;
	}
	n_divergent++;
	row_hits[row]++;
	if (verbose)
		printf("  divergent %s: %s\n", s, detail);
	return kind;
}

/* ------------------------------------------------------------ string lists */

struct strlist {
	char **v;
	int n, cap;
};

static void sl_add(struct strlist *l, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
#include <stdarg.h>
static void sl_add(struct strlist *l, const char *fmt, ...)
{
	char buf[PMON_MAX_NAME * 2];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	for (int i = 0; i < l->n; i++)
		if (!strcmp(l->v[i], buf))
			return;
	if (l->n == l->cap) {
		l->cap = l->cap ? 2 * l->cap : 64;
		l->v = realloc(l->v, (size_t)l->cap * sizeof(char *));
		if (!l->v)
			abort();
	}
	l->v[l->n++] = strdup(buf);
}

static void sl_free(struct strlist *l)
{
	for (int i = 0; i < l->n; i++)
		free(l->v[i]);
	free(l->v);
	memset(l, 0, sizeof(*l));
}

static int pfm_ok(const char *s)
{
	struct pfm_res r;
	pfm_enc(s, &r);
	return r.ret == PFM_SUCCESS;
}

static int pmon_ok(const char *s, int core)
{
	char buf[PMON_MAX_NAME * 2], err[256];
	pmon_encoding_t e;
	snprintf(buf, sizeof(buf), "%s%s", s, core ? ":cpu=0" : "");
	return pmon_encode(buf, 0, 0, &e, err, sizeof(err)) == PMON_OK;
}

/* Values tried for each libpfm4 modifier name (in range and just past it). */
struct modvals {
	const char *name;
	const char *vals[8];
};
static const struct modvals uncore_modvals[] = {
	{ "e",  { "0", "1", "2", NULL } },
	{ "i",  { "0", "1", NULL } },
	{ "t",  { "0", "1", "31", "32", "255", "256", NULL } },
	{ "tf", { "0", "1", "2", NULL } },
	{ "cf", { "0", "5", "15", "16", NULL } },
	{ "nf", { "0", "1", "0x80", "255", "256", NULL } },
	{ "ff", { "0", "16", "255", "256", NULL } },
	{ "addr", { "0x40", "0x12345000", NULL } },
	{ NULL, { NULL } },
};
static const struct modvals core_modvals[] = {
	{ "e",  { "0", "1", NULL } },
	{ "i",  { "0", "1", NULL } },
	{ "c",  { "0", "1", "255", "256", NULL } },
	{ "u",  { "0", "1", NULL } },
	{ "k",  { "0", "1", NULL } },
	{ "t",  { "0", "1", NULL } },
	{ NULL, { NULL } },
};

static const struct modvals *find_modvals(const struct modvals *t, const char *name)
{
	for (; t->name; t++)
		if (!strcmp(t->name, name))
			return t;
	return NULL;
}

struct evattrs {
	int nattrs;
	char *umask[128];
	int numasks;
	char *mod[32];
	int nmods;
};

static void get_attrs(int eidx, int nattrs, struct evattrs *a)
{
	memset(a, 0, sizeof(*a));
	for (int i = 0; i < nattrs; i++) {
		pfm_event_attr_info_t ai;
		memset(&ai, 0, sizeof(ai));
		ai.size = sizeof(ai);
		if (pfm_get_event_attr_info(eidx, i, PFM_OS_NONE, &ai) != PFM_SUCCESS)
			continue;
		if (ai.type == PFM_ATTR_UMASK) {
			if (a->numasks < 128)
				a->umask[a->numasks++] = strdup(ai.name);
		} else if (a->nmods < 32) {
			int dup = 0;
			for (int m = 0; m < a->nmods; m++)
				dup |= !strcmp(a->mod[m], ai.name);
			if (!dup)
				a->mod[a->nmods++] = strdup(ai.name);
		}
	}
}

static void free_attrs(struct evattrs *a)
{
	for (int i = 0; i < a->numasks; i++)
		free(a->umask[i]);
	for (int i = 0; i < a->nmods; i++)
		free(a->mod[i]);
}

static int has_mod(const struct evattrs *a, const char *m)
{
	for (int i = 0; i < a->nmods; i++)
		if (!strcmp(a->mod[i], m))
			return 1;
	return 0;
}

/* pmon's modifiers for this event that libpfm4 does not list for it. */
static void pmon_extra_mods(const char *pmu, const char *ev, const struct evattrs *a,
			    char names[][32], uint64_t *vals, int *n)
{
	*n = 0;
	int p = pmon_pmu_find(pmu);
	if (p < 0)
		return;
	int ne = pmon_event_count(p);
	for (int e = 0; e < ne; e++) {
		pmon_event_info_t ei;
		if (pmon_event_get(p, e, &ei) || strcasecmp(ei.name, ev))
			continue;
		int nm = pmon_mod_count(p, e);
		for (int m = 0; m < nm && *n < 16; m++) {
			pmon_mod_info_t mi;
			if (pmon_mod_get(p, e, m, &mi))
				continue;
			if (!strcmp(mi.name, "socket") || !strcmp(mi.name, "cpu") || has_mod(a, mi.name))
				continue;
			snprintf(names[*n], 32, "%s", mi.name);
			vals[*n] = mi.min ? mi.min : (mi.max ? 1 : 0);
			(*n)++;
		}
	}
}

/* pmon's event index by name on a PMU, or -1. */
static int pmon_event_find(int p, const char *name)
{
	int ne = pmon_event_count(p);
	for (int e = 0; e < ne; e++) {
		pmon_event_info_t ei;
		if (!pmon_event_get(p, e, &ei) && !strcasecmp(ei.name, name))
			return e;
	}
	return -1;
}

/* Build the test strings of one event of one PMU instance. */
static void event_strings(const char *pmu, const char *ev, const struct evattrs *a, int first,
			  int core, struct strlist *out)
{
	const struct modvals *mv = core ? core_modvals : uncore_modvals;
	struct strlist base = { 0 };
	int nf = has_mod(a, "nf");

	sl_add(&base, "%s::%s", pmu, ev);
	for (int u = 0; u < a->numasks; u++)
		sl_add(&base, "%s::%s:%s", pmu, ev, a->umask[u]);
	if (first)
		for (int u = 0; u < a->numasks; u++)
			for (int w = u + 1; w < a->numasks; w++)
				sl_add(&base, "%s::%s:%s:%s", pmu, ev, a->umask[u], a->umask[w]);
	for (int i = 0; i < base.n; i++) {
		sl_add(out, "%s", base.v[i]);
		if (nf)
			sl_add(out, "%s:nf=1", base.v[i]);
	}

	/* a string libpfm4 accepts, to hang modifiers on */
	const char *b = NULL;
	char bnf[PMON_MAX_NAME * 2] = "";
	for (int i = 0; i < base.n && !b; i++)       /* accepted by both, if any */
		if (pfm_ok(base.v[i]) && pmon_ok(base.v[i], core))
			b = base.v[i];
	for (int i = 0; i < base.n && !b; i++)
		if (pfm_ok(base.v[i]))
			b = base.v[i];
	if (nf)
		for (int i = 0; i < base.n && !bnf[0]; i++) {
			char t[PMON_MAX_NAME * 2];
			snprintf(t, sizeof(t), "%s:nf=1", base.v[i]);
			if (pfm_ok(t) && pmon_ok(t, 0))
				snprintf(bnf, sizeof(bnf), "%s", base.v[i]);
		}

	if (b) {
		for (int m = 0; m < a->nmods; m++) {
			const struct modvals *v = find_modvals(mv, a->mod[m]);
			if (!v)
				continue;
			const char *on = !strcmp(a->mod[m], "nf") && bnf[0] ? bnf : b;
			for (int k = 0; v->vals[k]; k++)
				sl_add(out, "%s:%s=%s", on, a->mod[m], v->vals[k]);
		}
		if (has_mod(a, "e") && has_mod(a, "i") && has_mod(a, "t"))
			sl_add(out, "%s:e=1:i=1:t=5", b);
		if (has_mod(a, "tf") && has_mod(a, "cf")) {
			sl_add(out, "%s:tf=1:cf=3", b);
			sl_add(out, "%s:tf=0:cf=0", b);
		}
		/* foreign modifiers: both must refuse */
		for (int k = 0; mv[k].name; k++)
			if (!has_mod(a, mv[k].name))
				sl_add(out, "%s:%s=1", b, mv[k].name);
		/* pmon's own modifiers for this event */
		char names[16][32];
		uint64_t vals[16];
		int n;
		pmon_extra_mods(pmu, ev, a, names, vals, &n);
		for (int k = 0; k < n; k++)
			sl_add(out, "%s:%s=%" PRIu64, b, names[k], vals[k]);
		sl_add(out, "%s:NO_SUCH_UMASK", b);
	}
	sl_free(&base);
}

static int is_core_pmu_name(const char *name, int *pmon_idx)
{
	int p = pmon_pmu_find(name);
	if (p < 0)
		return 0;
	pmon_pmu_info_t pi;
	if (pmon_pmu_get(p, &pi))
		return 0;
	*pmon_idx = p;
	return pi.per_cpu;
}

/* Strip the instance number: "snbep_unc_cbo3" -> "snbep_unc_cbo". */
static void pmu_type(const char *pmu, char *out, size_t len)
{
	snprintf(out, len, "%s", pmu);
	size_t n = strlen(out);
	while (n > 0 && out[n - 1] >= '0' && out[n - 1] <= '9')
		out[--n] = 0;
}

static int sweep_pmu(const pfm_pmu_info_t *pinfo, int core)
{
	char type[64];
	static char seen_types[64][64];
	static int nseen;
	int first = 1;

	pmu_type(pinfo->name, type, sizeof(type));
	for (int i = 0; i < nseen; i++)
		if (!strcmp(seen_types[i], type))
			first = 0;
	if (first && nseen < 64)
		snprintf(seen_types[nseen++], 64, "%s", type);

	int pp = pmon_pmu_find(pinfo->name);
	CHECK(pp >= 0, "libpfm4 PMU %s has no pmon counterpart", pinfo->name);
	if (pp < 0)
		return 0;

	int before = n_compared, bdiv = n_divergent, bun = n_unexplained;
	int nev = 0, nmissing = 0;
	for (int e = pinfo->first_event; e != -1; e = pfm_get_event_next(e)) {
		pfm_event_info_t info;
		memset(&info, 0, sizeof(info));
		info.size = sizeof(info);
		if (pfm_get_event_info(e, PFM_OS_NONE, &info) != PFM_SUCCESS)
			continue;
		if (core && strncmp(info.name, "OFFCORE_RESPONSE", 16))
			continue;   /* pmon's core PMUs carry the offcore events only */
		nev++;
		if (pmon_event_find(pp, info.name) < 0) {
			char s[PMON_MAX_NAME];
			snprintf(s, sizeof(s), "%s::%s", pinfo->name, info.name);
			int row = div_find_pfm(s, DIV_PMON_REFUSES, "unknown event", 0);
			if (row >= 0 && pmon_divergences[row].kind == DIV_PMON_REFUSES) {
				row_hits[row]++;
				n_compared++;
				n_divergent++;
			} else {
				nmissing++;
				n_compared++;
				n_unexplained++;
				CHECK(0, "UNEXPLAINED: libpfm4 event %s::%s is missing from pmon", pinfo->name,
				      info.name);
			}
			continue;
		}
		struct evattrs a;
		get_attrs(e, info.nattrs, &a);
		struct strlist l = { 0 };
		event_strings(pinfo->name, info.name, &a, first, core, &l);
		for (int i = 0; i < l.n; i++)
			compare(l.v[i], core);
		sl_free(&l);
		free_attrs(&a);
	}
	if (verbose || n_unexplained != bun)
		printf("  %-18s %3d events (%d missing in pmon), %5d strings, %4d divergent, %d unexplained\n",
		       pinfo->name, nev, nmissing, n_compared - before, n_divergent - bdiv,
		       n_unexplained - bun);
	return 1;
}

/* Events pmon has that libpfm4 lacks (reported, not compared). */
static void pmon_only_events(void)
{
	int np = pmon_pmu_count(), n = 0;
	char last_type[64] = "";
	for (int p = 0; p < np; p++) {
		pmon_pmu_info_t pi;
		if (pmon_pmu_get(p, &pi))
			continue;
		char type[64];
		pmu_type(pi.name, type, sizeof(type));
		if (!strcmp(type, last_type))
			continue;
		snprintf(last_type, sizeof(last_type), "%s", type);
		int ne = pmon_event_count(p);
		for (int e = 0; e < ne; e++) {
			pmon_event_info_t ei;
			char s[PMON_MAX_NAME];
			if (pmon_event_get(p, e, &ei))
				continue;
			snprintf(s, sizeof(s), "%s::%s", pi.name, ei.name);
			struct pfm_res r;
			pfm_enc(s, &r);
			if (r.ret == PFM_ERR_NOTFOUND) {
				printf("  pmon-only event (not in libpfm4): %s\n", s);
				n++;
			}
		}
	}
	printf("pfm compare: %d pmon-only events (no libpfm4 counterpart; see test_intel_compare)\n", n);
}

/* Rows whose string was not generated by the sweep: compare them directly. */
static void check_rows(void)
{
	for (int i = 0; i < pmon_ndivergences; i++) {
		const struct pmon_divergence *d = &pmon_divergences[i];
		if (d->source != DIV_LIBPFM4)
			continue;
		/* the Nehalem/Westmere uncore rows: tables not in the live
		 * catalogue yet, checked by test_nhm_tables */
		if (!strncmp(d->match, "nhm_unc::", 9) || !strncmp(d->match, "wsm_unc::", 9))
			continue;
		if (!row_hits[i] && !strchr(d->match, '*')) {
			/* instance-less PMU names: try instance 0 */
			char s[PMON_MAX_NAME * 2];
			const char *sep = strstr(d->match, "::");
			int core = 0, idx;
			if (sep && pmon_pmu_find(d->match) < 0) {
				char pmu[64];
				snprintf(pmu, sizeof(pmu), "%.*s", (int)(sep - d->match), d->match);
				if (pmon_pmu_find(pmu) < 0)
					snprintf(s, sizeof(s), "%s0%s", pmu, sep);
				else
					snprintf(s, sizeof(s), "%s", d->match);
				core = is_core_pmu_name(pmu, &idx);
			} else {
				snprintf(s, sizeof(s), "%s", d->match);
			}
			compare(s, core);
		}
		CHECK(row_hits[i] > 0, "divergence row '%s' (%s) matched no real difference: "
		      "fixed? remove it from ctests/divergences.c and doc/divergences.md",
		      d->match, div_kind_name(d->kind));
	}
}


/* doc/divergences.md must carry the same rows as the C table: every row's
 * match string (and every not-in-guide unit/entry) in backquotes at the
 * start of a table row, and no other table rows. */
static void check_doc(void)
{
	const char *starts[2] = { ".", __FILE__ };
	char root[2048] = "", path[2200];
	for (int s = 0; s < 2 && !root[0]; s++) {
		char base[1900];
		snprintf(base, sizeof(base), "%s", starts[s]);
		if (s == 1) {
			char *slash = strrchr(base, '/');
			if (!slash)
				continue;
			*slash = 0;
		}
		for (int up = 0; up < 5 && !root[0]; up++) {
			snprintf(path, sizeof(path), "%s/ctests/divergences.h", base);
			FILE *f = fopen(path, "r");
			if (f) {
				fclose(f);
				snprintf(root, sizeof(root), "%s", base);
				break;
			}
			if (strlen(base) + 4 >= sizeof(base))
				break;
			strcat(base, "/..");
		}
	}
	snprintf(path, sizeof(path), "%s/doc/divergences.md", root[0] ? root : ".");
	FILE *f = fopen(path, "r");
	CHECK(f != NULL, "cannot read %s (the human copy of the divergence table)", path);
	if (!f)
		return;
	char *doc = NULL;
	size_t len = 0, cap = 0;
	char line[8192];
	int doc_rows = 0;
	while (fgets(line, sizeof(line), f)) {
		if (!strncmp(line, "| `", 3))
			doc_rows++;
		size_t n = strlen(line);
		if (len + n + 1 > cap) {
			cap = (len + n + 1) * 2;
			doc = realloc(doc, cap);
			if (!doc)
				abort();
		}
		memcpy(doc + len, line, n + 1);
		len += n;
	}
	fclose(f);
	if (!doc)
		doc = strdup("");
	char want[600];
	for (int i = 0; i < pmon_ndivergences; i++) {
		snprintf(want, sizeof(want), "\n| `%s`", pmon_divergences[i].match);
		CHECK(strstr(doc, want) != NULL, "doc/divergences.md has no row for `%s`",
		      pmon_divergences[i].match);
	}
	for (int i = 0; i < pmon_nnot_in_guide; i++) {
		snprintf(want, sizeof(want), "\n| `%s` | `%s` |", pmon_not_in_guide[i].unit,
			 pmon_not_in_guide[i].event ? pmon_not_in_guide[i].event : "*");
		CHECK(strstr(doc, want) != NULL, "doc/divergences.md has no not-in-guide row for %s %s",
		      pmon_not_in_guide[i].unit, pmon_not_in_guide[i].event ? pmon_not_in_guide[i].event : "*");
	}
	CHECK_EQ_INT(doc_rows, pmon_ndivergences + pmon_nnot_in_guide,
		     "table rows in doc/divergences.md vs ctests/divergences.c");
	free(doc);
}

int main(int argc, char **argv)
{
	verbose = argc > 1 && !strcmp(argv[1], "-v");
	setenv("LIBPFM_ENCODE_INACTIVE", "1", 1);
	int r = pfm_initialize();
	CHECK(r == PFM_SUCCESS, "pfm_initialize: %s", pfm_strerror(r));
	if (r != PFM_SUCCESS)
		return check_done("test_pfm_compare");
	row_hits = calloc((size_t)pmon_ndivergences + 1, sizeof(int));

	int nuncore = 0, ncore = 0;
	for (int p = 0; p < PFM_PMU_MAX; p++) {
		pfm_pmu_info_t pinfo;
		memset(&pinfo, 0, sizeof(pinfo));
		pinfo.size = sizeof(pinfo);
		if (pfm_get_pmu_info(p, &pinfo) != PFM_SUCCESS || !pinfo.name)
			continue;
		int idx;
		if (!strncmp(pinfo.name, "snbep_unc_", 10))
			nuncore += sweep_pmu(&pinfo, 0);
		else if (is_core_pmu_name(pinfo.name, &idx))
			ncore += sweep_pmu(&pinfo, 1);
	}
	CHECK(nuncore == 20, "expected the 20 snbep_unc_* PMU instances of libpfm4, compared %d", nuncore);
	/* every pmon core PMU must have a libpfm4 counterpart to compare with */
	int npmon_core = 0;
	for (int p = 0; p < pmon_pmu_count(); p++) {
		pmon_pmu_info_t pi;
		if (!pmon_pmu_get(p, &pi) && pi.per_cpu) {
			npmon_core++;
			pfm_pmu_info_t pinfo;
			int found = 0;
			for (int q = 0; q < PFM_PMU_MAX && !found; q++) {
				memset(&pinfo, 0, sizeof(pinfo));
				pinfo.size = sizeof(pinfo);
				if (pfm_get_pmu_info(q, &pinfo) == PFM_SUCCESS && pinfo.name &&
				    !strcmp(pinfo.name, pi.name))
					found = 1;
			}
			CHECK(found, "pmon core PMU %s has no libpfm4 PMU of that name", pi.name);
		}
	}
	check_rows();
	check_doc();
	pmon_only_events();
	printf("pfm compare: %d uncore PMUs, %d core PMUs (of %d in pmon)\n", nuncore, ncore, npmon_core);
	printf("pfm compare: %d compared, %d equal (%d refused by both), %d divergent (documented), "
	       "%d unexplained\n", n_compared, n_equal, n_refused_both, n_divergent, n_unexplained);
	free(row_hits);
	pfm_terminate();
	return check_done("test_pfm_compare");
}
