/*
 * test_nhm_tables.c - the Nehalem-EP and Westmere-EP uncore catalogue
 * (src/nhm/) against libpfm4 4.13's nhm_unc and wsm_unc, and its own rules.
 *
 * The tables are encoded through pmon_encode_table(), the encoder's own
 * rules applied to a box type directly (no machine of their generation
 * needs to be open).  For every libpfm4 event: the event alone,
 * every umask alone, every pair of umasks, the modifiers e i c o in range and
 * past it, foreign modifiers and an unknown umask; libpfm4
 * (LIBPFM_ENCODE_INACTIVE=1, PFM_OS_NONE, enable and PMI bits masked) and
 * pmon must both refuse or both give the same control word.  Every
 * difference must be a "nhm_unc::"/"wsm_unc::" row of the divergence table
 * (ctests/divergences.c, doc/divergences.md), of exactly the kind seen, and
 * every such row must still match a real difference.  Prints equal/total per
 * PMU.  Then the structure of both tables, and the guide-only events'
 * encodings (QHL matcher MSR 0x396, snoop MESF select MSR 0x301, the
 * counter-mask forms of UNC_GQ_TRACKER_OCCUP), value by value.
 */
#define _POSIX_C_SOURCE 200809L
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <perfmon/pfmlib.h>

#include "pmon/pmon.h"
#include "encode.h"
#include "nhm/nhm.h"
#include "check.h"
#include "divergences.h"
#include "tables_check.h"

#define UNC_EN   (1ull << 22)
#define UNC_PMI  (1ull << 20)

static int *row_hits;
static int verbose;

static int pmon_enc(const struct pmon_box_type *t, const char *s, pmon_encoding_t *e, char *err,
		    size_t len)
{
	const char *sep = strstr(s, "::");
	return pmon_encode_table(t, t->pmu_prefix, sep ? sep + 2 : s, e, err, len);
}

static int pfm_enc(const char *s, uint64_t *code)
{
	uint64_t codes[4] = { 0 };
	pfm_pmu_encode_arg_t arg;
	memset(&arg, 0, sizeof(arg));
	arg.size = sizeof(arg);
	arg.codes = codes;
	arg.count = 4;
	int r = pfm_get_os_event_encoding(s, PFM_PLM0 | PFM_PLM3, PFM_OS_NONE, &arg);
	if (r == PFM_SUCCESS) {
		/* libpfm4 has no filter register for these PMUs: one code */
		CHECK(arg.count == 1, "%s: libpfm4 gave %d codes", s, arg.count);
		*code = codes[0] & ~(UNC_EN | UNC_PMI);
	}
	return r;
}

/* One string: 1 if libpfm4 and pmon agree, 0 if a documented row covers the
 * difference; an undocumented difference fails. */
static int compare(const struct pmon_box_type *t, const char *s)
{
	uint64_t pctl = 0;
	pmon_encoding_t pe;
	char err[256];
	int pr = pfm_enc(s, &pctl);
	int mr = pmon_enc(t, s, &pe, err, sizeof(err));
	int kind = 0;
	if (pr == PFM_SUCCESS && mr == PMON_OK) {
		if (pctl != pe.ctl)
			kind = DIV_CTL;
		/* a libpfm4 event never programs a filter; neither may pmon's */
		for (int w = 0; w < PMON_FILTER_WORDS; w++)
			if (pe.filt[w])
				kind |= DIV_FILTER;
	} else if (pr == PFM_SUCCESS) {
		kind = DIV_PMON_REFUSES;
	} else if (mr == PMON_OK) {
		kind = DIV_PMON_ACCEPTS;
	}
	int row = div_find_pfm(s, kind, err, 0);
	if (!kind) {
		CHECK(row < 0 || strchr(pmon_divergences[row].match, '*'), "row '%s' covers '%s', which "
		      "libpfm4 and pmon encode alike: remove the row", row >= 0 ? pmon_divergences[row].match : "", s);
		if (verbose)
			printf("  equal %s\n", s);
		return 1;
	}
	CHECK(row >= 0 && (int)pmon_divergences[row].kind == kind,
	      "UNEXPLAINED %s: %s (libpfm4 %s ctl=0x%" PRIx64 "; pmon %s ctl=0x%" PRIx64 " %s)%s%s", s,
	      div_kind_name(kind), pr == PFM_SUCCESS ? "encodes" : pfm_strerror(pr), pctl,
	      mr == PMON_OK ? "encodes" : "refuses", mr == PMON_OK ? pe.ctl : 0, mr == PMON_OK ? "" : err,
	      row >= 0 ? "; row says " : "", row >= 0 ? div_kind_name(pmon_divergences[row].kind) : "");
	if (row >= 0)
		row_hits[row]++;
	if (verbose)
		printf("  divergent %s (%s)\n", s, div_kind_name(kind));
	return 0;
}

struct strs {
	char v[512][160];
	int n;
};

static void add(struct strs *l, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
#include <stdarg.h>
static void add(struct strs *l, const char *fmt, ...)
{
	if (l->n >= (int)(sizeof(l->v) / sizeof(l->v[0]))) {
		CHECK(0, "too many strings for one event");
		return;
	}
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(l->v[l->n++], sizeof(l->v[0]), fmt, ap);
	va_end(ap);
}

static const char *const mod_tries[] = {
	"e=0", "e=1", "e=2", "i=0", "i=1", "i=2", "c=0", "c=1", "c=32", "c=255", "c=256",
	"o=0", "o=1", "o=2", "e=1:i=1:c=5",
	/* foreign to both: core-PMU and SNB-EP spellings, and the matcher's */
	"t=1", "u=1", "k=1", "opc=25", "addr=0x1000", "NO_SUCH_UMASK",
};

/* Sweep one libpfm4 PMU against box type t; returns the number of pmon
 * events libpfm4 has no counterpart for. */
static int sweep(const struct pmon_box_type *t, const char *const *pmon_only, int npmon_only)
{
	pfm_pmu_info_t pinfo;
	int found = 0;
	for (int p = 0; p < PFM_PMU_MAX && !found; p++) {
		memset(&pinfo, 0, sizeof(pinfo));
		pinfo.size = sizeof(pinfo);
		if (pfm_get_pmu_info(p, &pinfo) == PFM_SUCCESS && pinfo.name &&
		    !strcmp(pinfo.name, t->pmu_prefix))
			found = 1;
	}
	CHECK(found, "libpfm4 has no PMU %s", t->pmu_prefix);
	if (!found)
		return 0;
	CHECK_EQ_INT(pinfo.num_cntrs, t->ncounters, "general counters (libpfm4 vs table)");
	CHECK_EQ_INT(pinfo.num_fixed_cntrs, t->has_fixed, "fixed counters (libpfm4 vs table)");

	int total = 0, equal = 0, npfm = 0;
	static struct strs l;
	for (int e = pinfo.first_event; e != -1; e = pfm_get_event_next(e)) {
		pfm_event_info_t info;
		memset(&info, 0, sizeof(info));
		info.size = sizeof(info);
		if (pfm_get_event_info(e, PFM_OS_NONE, &info) != PFM_SUCCESS)
			continue;
		npfm++;
		const struct pmon_event *pev = tc_find_event(t, info.name);
		CHECK(pev != NULL, "libpfm4 event %s::%s is missing from pmon", t->pmu_prefix, info.name);
		if (pev)
			CHECK(pev->code == (info.code & 0xff), "%s: code 0x%x, libpfm4 0x%" PRIx64, info.name,
			      pev->code, info.code & 0xff);
		char um[64][64];
		int nu = 0;
		for (int a = 0; a < info.nattrs; a++) {
			pfm_event_attr_info_t ai;
			memset(&ai, 0, sizeof(ai));
			ai.size = sizeof(ai);
			if (pfm_get_event_attr_info(e, a, PFM_OS_NONE, &ai) == PFM_SUCCESS &&
			    ai.type == PFM_ATTR_UMASK && nu < 64) {
				snprintf(um[nu++], sizeof(um[0]), "%s", ai.name);
				const struct pmon_umask *m = tc_find_umask(pev, ai.name);
				CHECK(m != NULL, "%s: libpfm4 umask %s missing", info.name, ai.name);
				if (m)
					CHECK(m->value == ai.code, "%s:%s = 0x%" PRIx64 ", libpfm4 0x%" PRIx64,
					      info.name, ai.name, m->value, ai.code);
			}
		}
		l.n = 0;
		add(&l, "%s::%s", t->pmu_prefix, info.name);
		for (int u = 0; u < nu; u++)
			add(&l, "%s::%s:%s", t->pmu_prefix, info.name, um[u]);
		for (int u = 0; u < nu; u++)
			for (int w = u + 1; w < nu; w++)
				add(&l, "%s::%s:%s:%s", t->pmu_prefix, info.name, um[u], um[w]);
		/* modifiers on the first string libpfm4 accepts */
		char base[160] = "";
		for (int i = 0; i < l.n && !base[0]; i++) {
			uint64_t c;
			if (pfm_enc(l.v[i], &c) == PFM_SUCCESS)
				snprintf(base, sizeof(base), "%s", l.v[i]);
		}
		CHECK(base[0], "%s: libpfm4 accepts none of its strings", info.name);
		int nbase = l.n;
		for (int m = 0; base[0] && m < PMON_ARRAY_SIZE(mod_tries); m++)
			add(&l, "%s:%s", base, mod_tries[m]);
		CHECK(l.n > nbase || !base[0], "%s: no modifier strings", info.name);
		for (int i = 0; i < l.n; i++) {
			equal += compare(t, l.v[i]);
			total++;
		}
	}
	/* pmon's events beyond libpfm4's: exactly the guide-only ones */
	int extra = 0;
	for (const struct pmon_event *ev = t->events; ev->name; ev++) {
		char s[160];
		uint64_t c;
		snprintf(s, sizeof(s), "%s::%s", t->pmu_prefix, ev->name);
		if (pfm_enc(s, &c) == PFM_ERR_NOTFOUND) {
			extra++;
			CHECK(tc_in_list(pmon_only, npmon_only, ev->name), "%s is in pmon only and not "
			      "one of the guide's events", s);
		}
	}
	CHECK_EQ_INT(extra, npmon_only, "guide-only events");
	CHECK_EQ_INT(tc_count_events(t), npfm + npmon_only, "events: libpfm4's plus the guide's");
	printf("%s: %d/%d strings encode alike in libpfm4 4.13 and pmon (%d libpfm4 events, "
	       "%d guide-only events in pmon)\n", t->pmu_prefix, equal, total, npfm, extra);
	return extra;
}

/* ---------------------------------------------------------- structure */

static void structure(const struct pmon_box_type *t)
{
	const char *bn = t->pmu_prefix;
	CHECK(t->space == PMON_SPACE_MSR && t->max_boxes == 1 && t->ncounters == 8 && t->width == 48,
	      "%s: one MSR PMU, 8 counters of 48 bits", bn);
	CHECK(!t->has_box_ctl && t->msr_glb_ctl == 0x391 && t->msr_glb_status == 0x392 &&
	      t->msr_glb_ovf == 0x393 && t->glb_fixed_bit == 1ull << 32, "%s: global control", bn);
	CHECK(t->msr_ctl0 == 0x3c0 && t->msr_ctr0 == 0x3b0 && t->msr_stride == 0, "%s: counters", bn);
	CHECK(t->has_fixed && t->fixed_ctr == 0x394 && t->fixed_ctl == 0x395 && t->fixed_en == 1 &&
	      t->fixed_width == 48, "%s: fixed counter", bn);
	CHECK(!(t->ctl_valid & (UNC_EN | UNC_PMI)), "%s: ctl_valid excludes enable and PMI", bn);
	CHECK(t->nmods == 6 && !strcmp(t->mods[0].name, "e") && !strcmp(t->mods[1].name, "i") &&
	      !strcmp(t->mods[2].name, "c") && !strcmp(t->mods[3].name, "o"), "%s: e i c o first", bn);
	for (int m = 0; m < t->nmods; m++) {
		const struct pmon_modifier *M = &t->mods[m];
		CHECK(tc_one_line(M->desc, 120), "%s: modifier %s description", bn, M->name);
		if (M->kind == PMON_MOD_CTL)
			CHECK(((pmon_bits(M->width) << M->shift) & ~(uint64_t)t->ctl_valid) == 0 &&
			      M->max == pmon_bits(M->width), "%s: modifier %s bits", bn, M->name);
		else
			CHECK(M->field < t->nfields, "%s: modifier %s field", bn, M->name);
	}
	for (int f = 0; f < t->nfields; f++) {
		uint64_t valid = tc_valid_bits(t, t->fields[f].word);
		CHECK((tc_field_bits(&t->fields[f]) & ~valid) == 0, "%s: field %s outside its register",
		      bn, t->fields[f].name);
	}
	int n = tc_count_events(t);
	for (int i = 0; i < n; i++) {
		const struct pmon_event *e = &t->events[i];
		int fixed = (e->flags & PMON_EV_FIXED) != 0;
		CHECK(!strncmp(e->name, "UNC_", 4) && tc_one_line(e->desc, 120), "%s: name/description",
		      e->name);
		for (int j = i + 1; j < n; j++) {
			CHECK(strcasecmp(e->name, t->events[j].name), "%s twice", e->name);
			CHECK(e->code != t->events[j].code, "%s and %s share code 0x%x", e->name,
			      t->events[j].name, e->code);
		}
		CHECK(e->ext == 0 && (e->flags & ~(PMON_EV_FIXED | PMON_EV_NEED_UM)) == 0,
		      "%s: no extra select bit, no occupancy/offcore flags", e->name);
		CHECK(fixed ? e->cntmask == 0 && !e->numasks && !e->mods : e->cntmask == 0xff && e->mods == NHM_M_STD,
		      "%s: counters 0-7 and e i c o (fixed: none)", e->name);
		CHECK(!(e->flags & PMON_EV_NEED_UM) || e->numasks, "%s: needs a umask it lacks", e->name);
		int ndef[4] = { 0 };
		for (int u = 0; u < e->numasks; u++) {
			const struct pmon_umask *m = &e->umasks[u];
			CHECK(m->value <= 0xff && tc_one_line(m->desc, 120), "%s:%s value within 8 bits, "
			      "description", e->name, m->name);
			CHECK(m->value || m->filt_set[0] || m->filt_set[1], "%s:%s sets nothing", e->name,
			      m->name);
			CHECK((m->ctl_set & ~t->ctl_valid) == 0 && (m->ctl_set & 0xffffu) == 0,
			      "%s:%s ctl_set outside cmask/edge/invert", e->name, m->name);
			CHECK(m->grp < 4, "%s:%s group", e->name, m->name);
			for (int w = 0; w < 2; w++)
				CHECK((m->filt_set[w] & ~(tc_fields_mask(t, m->fields, w) & tc_valid_bits(t, w))) == 0,
				      "%s:%s filter bits outside its fields", e->name, m->name);
			if (m->flags & PMON_UM_DEFAULT && m->grp < 4)
				ndef[m->grp]++;
			for (int v = u + 1; v < e->numasks; v++)
				CHECK(strcasecmp(m->name, e->umasks[v].name), "%s:%s twice", e->name, m->name);
		}
		for (int g = 0; g < 4; g++)
			CHECK(ndef[g] <= 1, "%s: one default per group", e->name);
		if (e->numasks)
			CHECK((e->flags & PMON_EV_NEED_UM) != (ndef[0] > 0), "%s: either a default umask or "
			      "NEED_UM", e->name);
	}
}

/* ------------------------------------------------- guide-only encodings */

static void want(const char *s, uint64_t ctl, uint64_t f0, uint64_t f1)
{
	pmon_encoding_t e;
	char err[256];
	int rc = pmon_enc(&pmon_nhm_unc, s, &e, err, sizeof(err));
	CHECK(rc == PMON_OK, "%s: %s", s, err);
	if (rc)
		return;
	CHECK(e.ctl == ctl && e.filt[0] == f0 && e.filt[1] == f1, "%s: ctl 0x%" PRIx64 " filt 0x%" PRIx64
	      ",0x%" PRIx64 ", want 0x%" PRIx64 " 0x%" PRIx64 ",0x%" PRIx64, s, e.ctl, e.filt[0], e.filt[1],
	      ctl, f0, f1);
}

static void refused(const char *s, int code, const char *text)
{
	pmon_encoding_t e;
	char err[256] = "";
	int rc = pmon_enc(&pmon_nhm_unc, s, &e, err, sizeof(err));
	CHECK(rc == code && strstr(err, text), "%s: rc %d (%s), want %d with '%s'", s, rc, err, code, text);
}

static void guide_events(void)
{
	/* QHL matcher, guide Table 38: the predefined values exactly */
	want("UNC_ADDR_OPCODE_MATCH:LOCAL:RSPFWDI", 0x0435, 0x4000190000000000ull, 0);
	want("UNC_ADDR_OPCODE_MATCH:REMOTE:RSPFWDS", 0x0235, 0x40001a0000000000ull, 0);
	want("UNC_ADDR_OPCODE_MATCH:IOH:RSPIWB", 0x0135, 0x40001d0000000000ull, 0);
	want("UNC_ADDR_OPCODE_MATCH:LOCAL:OPCODE:RSPFWDI", 0x0435, 0x4000190000000000ull, 0);
	want("UNC_ADDR_OPCODE_MATCH:LOCAL:opc=0x19", 0x0435, 0x4000190000000000ull, 0);
	want("UNC_ADDR_OPCODE_MATCH:LOCAL:REMOTE:opc=0x1d", 0x0635, 0x40001d0000000000ull, 0);
	want("UNC_ADDR_OPCODE_MATCH:LOCAL:ADDR:addr=0x12345678", 0x0435, 0x8000000012345678ull, 0);
	want("UNC_ADDR_OPCODE_MATCH:LOCAL:ADDR_AND_OPCODE:addr=0xfffffffff8:RSPIWB", 0x0435,
	     0x20001dfffffffff8ull, 0);
	want("UNC_ADDR_OPCODE_MATCH:LOCAL:ADDR_OR_OPCODE:addr=0x40:opc=0x19:c=1", 0x01000435,
	     0xc000190000000040ull, 0);
	refused("UNC_ADDR_OPCODE_MATCH:LOCAL", PMON_EQUAL, "filter field opc");
	refused("UNC_ADDR_OPCODE_MATCH:RSPFWDI", PMON_EUMASK, "needs a umask");
	refused("UNC_ADDR_OPCODE_MATCH:LOCAL:ADDR", PMON_EQUAL, "filter field addr");
	refused("UNC_ADDR_OPCODE_MATCH:LOCAL:ADDR:addr=0x12345679", PMON_ERANGE, "below bit 3");
	refused("UNC_ADDR_OPCODE_MATCH:LOCAL:ADDR:addr=0x10000000000", PMON_ERANGE, "above physical address bit 39");
	refused("UNC_ADDR_OPCODE_MATCH:LOCAL:ADDR:addr=0x40:RSPFWDI", PMON_EUMASK, "does not use");
	refused("UNC_ADDR_OPCODE_MATCH:LOCAL:RSPFWDI:RSPIWB", PMON_EUMASK, "cannot be combined");
	refused("UNC_ADDR_OPCODE_MATCH:LOCAL:opc=256", PMON_ERANGE, "out of range");
	refused("UNC_LLC_MISS:opc=1", PMON_EQUAL, "does not apply");

	/* The matcher is one whole register: an encoding owns all its fields */
	pmon_encoding_t a, b;
	char err[256];
	if (pmon_enc(&pmon_nhm_unc, "UNC_ADDR_OPCODE_MATCH:LOCAL:RSPFWDI", &a, err, sizeof(err)) == PMON_OK &&
	    pmon_enc(&pmon_nhm_unc, "UNC_ADDR_OPCODE_MATCH:REMOTE:opc=0x19", &b, err, sizeof(err)) == PMON_OK) {
		uint32_t m396 = (1u << NHM_F_ADDR) | (1u << NHM_F_OPC) | (1u << NHM_F_MSEL);
		CHECK(a.fields_used == m396 && b.fields_used == m396 && a.filt_used == 1 && b.filt_used == 1,
		      "matcher events own all of MSR 0x396 (fields 0x%x 0x%x)", a.fields_used, b.fields_used);
		CHECK(a.filt[0] == b.filt[0], "LOCAL:RSPFWDI and REMOTE:opc=0x19 want one value: they share");
	} else {
		CHECK(0, "matcher encodings: %s", err);
	}

	/* Snoop MESF transitions, guide Table 28: umask 04/08 plus MSR 0x301 */
	want("UNC_GQ_SNOOP:GOTO_S", 0x010c, 0, 0);
	want("UNC_GQ_SNOOP:GOTO_I", 0x020c, 0, 0);
	want("UNC_GQ_SNOOP:GOTO_S_HIT_M", 0x040c, 0, 0x01);
	want("UNC_GQ_SNOOP:GOTO_S_HIT_F", 0x040c, 0, 0x08);
	want("UNC_GQ_SNOOP:GOTO_I_HIT_E", 0x080c, 0, 0x20);
	want("UNC_GQ_SNOOP:GOTO_I_HIT_F:e=1", 0x04080c, 0, 0x80);
	refused("UNC_GQ_SNOOP", PMON_EUMASK, "needs a umask");
	refused("UNC_GQ_SNOOP:GOTO_S_HIT_M:GOTO_S_HIT_E", PMON_EUMASK, "cannot be combined");
	if (pmon_enc(&pmon_nhm_unc, "UNC_GQ_SNOOP:GOTO_S_HIT_S", &a, err, sizeof(err)) == PMON_OK)
		CHECK(a.fields_used == 1u << NHM_F_MESF && a.filt_used == 2, "MSR 0x301 is filter word 1, "
		      "owned whole (fields 0x%x words 0x%x)", a.fields_used, a.filt_used);
	else
		CHECK(0, "GOTO_S_HIT_S: %s", err);

	/* GQ occupancy and its counter-mask forms, guide Tables 22 and 24 */
	want("UNC_GQ_TRACKER_OCCUP:RT", 0x0102, 0, 0);
	want("UNC_GQ_TRACKER_OCCUP:RT_LLC_MISS_FULL", 0x20000202, 0, 0);
	want("UNC_GQ_TRACKER_OCCUP:RT_TO_LLC_RESP_BUSY", 0x01000402, 0, 0);
	want("UNC_GQ_TRACKER_OCCUP:RT_TO_RTID_ACQUIRED_FULL:e=1", 0x20040802, 0, 0);
	refused("UNC_GQ_TRACKER_OCCUP:RT_LLC_MISS_FULL:c=2", PMON_EQUAL, "already sets");
	refused("UNC_GQ_TRACKER_OCCUP:RT_LLC_MISS_FULL:RT", PMON_EUMASK, "cannot be combined");

	/* Snoop-response sums the guide adds (Tables 26 and 27) */
	want("UNC_SNP_RESP_TO_LOCAL_HOME:HIT", 0x1a06, 0, 0);
	want("UNC_SNP_RESP_TO_LOCAL_HOME:HITM", 0x2406, 0, 0);
	want("UNC_SNP_RESP_TO_REMOTE_HOME:HIT", 0x1a07, 0, 0);
	refused("UNC_SNP_RESP_TO_LOCAL_HOME:HIT:WB", PMON_EUMASK, "cannot be combined");

	/* damaged-table decisions (doc/divergences.md, Nehalem section) */
	want("UNC_LLC_HITS", 0x0308, 0, 0);
	want("UNC_LLC_LINES_IN:F_STATE", 0x080a, 0, 0);
	want("UNC_LLC_LINES_OUT:I_STATE", 0x080b, 0, 0);
	want("UNC_QMC_BUSY:WRITE_CH0", 0x0829, 0, 0);
	want("UNC_GQ_DATA_FROM:CORES_13", 0x1004, 0, 0);
	want("UNC_DRAM_READ_CAS:AUTOPRE_CH1", 0x0863, 0, 0);
	want("UNC_CLK_UNHALTED", 0, 0, 0);
}

int main(int argc, char **argv)
{
	verbose = argc > 1 && !strcmp(argv[1], "-v");
	setenv("LIBPFM_ENCODE_INACTIVE", "1", 1);
	int r = pfm_initialize();
	CHECK(r == PFM_SUCCESS, "pfm_initialize: %s", pfm_strerror(r));
	if (r != PFM_SUCCESS)
		return check_done("test_nhm_tables");
	row_hits = calloc((size_t)pmon_ndivergences + 1, sizeof(int));
	if (!row_hits)
		return 1;

	static const char *const nhm_only[] = { "UNC_GQ_TRACKER_OCCUP", "UNC_GQ_SNOOP", "UNC_ADDR_OPCODE_MATCH" };
	static const char *const wsm_only[] = { "UNC_GQ_SNOOP", "UNC_ADDR_OPCODE_MATCH" };
	structure(&pmon_nhm_unc);
	structure(&pmon_wsm_unc);
	sweep(&pmon_nhm_unc, nhm_only, PMON_ARRAY_SIZE(nhm_only));
	sweep(&pmon_wsm_unc, wsm_only, PMON_ARRAY_SIZE(wsm_only));
	guide_events();

	/* every Nehalem/Westmere row still describes a real difference */
	int nrows = 0;
	for (int i = 0; i < pmon_ndivergences; i++) {
		const struct pmon_divergence *d = &pmon_divergences[i];
		if (d->source != DIV_LIBPFM4 || (strncmp(d->match, "nhm_unc::", 9) && strncmp(d->match, "wsm_unc::", 9)))
			continue;
		nrows++;
		CHECK(row_hits[i] > 0, "divergence row '%s' matched no difference: fixed? remove it "
		      "from ctests/divergences.c and doc/divergences.md", d->match);
		printf("  documented: %-55s %s (%d strings)\n", d->match, div_kind_name(d->kind), row_hits[i]);
	}
	CHECK(nrows > 0, "no Nehalem/Westmere divergence rows");
	free(row_hits);
	pfm_terminate();
	return check_done("test_nhm_tables");
}
