/*
 * test_intel_compare.c - pmon's encodings checked against Intel's event data.
 *
 * Uncore: for every entry of Jaketown_uncore.json whose unit the E5-2600
 * uncore guide covers (CBO, HA, iMC, PCU, QPI LL, R2PCIe, R3QPI, UBOX), the
 * EventName (UNC_M_CAS_COUNT.RD) is mapped to pmon's name
 * (snbep_unc_imc0::UNC_M_CAS_COUNT:RD), completed with what pmon needs to
 * encode it (a umask of every required group, a value for every required
 * filter field), encoded, and EventCode, UMask, ExtSel and the filter fields
 * the entry depends on (Intel's "Filter" column) are compared.  IRP entries
 * and entries of events the guide does not document are listed in the
 * not-in-guide table (divergences.c); every other difference must be a
 * documented divergence row.
 *
 * Offcore: the request/response bit definitions and the matrix of
 * Jaketown_matrix*.json are compared with pmon's snb_ep OFFCORE_RESPONSE_0
 * umasks, and the offcore entries of Jaketown_core.json / skylakex_core.json
 * (MSRValue) with pmon's snb_ep / skx encodings.
 *
 * Intel's data lives in ../shared/reference/intel-perfmon beside the
 * repository (or $PMON_SHARED/reference/intel-perfmon), read with jansson;
 * without it the test ends with check_skip(): the runner counts it as
 * skipped, not passed.
 */
#define _POSIX_C_SOURCE 200809L
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include <jansson.h>

#include "pmon/pmon.h"
#include "catalog.h"

#include "check.h"
#include "divergences.h"

static int n_compared, n_equal, n_divergent, n_not_in_guide, n_unexplained;
static int *row_hits, *nig_hits;

/* ------------------------------------------------------------ locating data */

static int is_dir(const char *p)
{
	struct stat st;
	return stat(p, &st) == 0 && S_ISDIR(st.st_mode);
}

static int is_file(const char *p)
{
	struct stat st;
	return stat(p, &st) == 0 && S_ISREG(st.st_mode);
}

/* The intel-perfmon directory, or 0 if ../shared cannot be found. */
/* Intel's perfmon files: {"Header": {...}, "Events": [ {...}, ... ]}, every
 * value a string.  The Events array of a file (a reference to the whole
 * document is kept in *doc for json_decref), or NULL with err set. */
static json_t *load_events(const char *path, json_t **doc, char *err, size_t errlen)
{
	json_error_t jerr;
	json_t *ev;

	*doc = json_load_file(path, 0, &jerr);
	if (!*doc) {
		snprintf(err, errlen, "line %d: %s", jerr.line, jerr.text);
		return NULL;
	}
	ev = json_is_array(*doc) ? *doc : json_object_get(*doc, "Events");
	if (!json_is_array(ev)) {
		snprintf(err, errlen, "no Events array");
		json_decref(*doc);
		*doc = NULL;
		return NULL;
	}
	return ev;
}

/* The string value of key in an event record, or NULL. */
static const char *jget(const json_t *rec, const char *key)
{
	return json_string_value(json_object_get(rec, key));
}

static int find_data(char *out, size_t len)
{
	const char *env = getenv("PMON_SHARED");
	char buf[4096];
	if (env && *env) {
		snprintf(out, len, "%s/reference/intel-perfmon", env);
		return is_dir(out);
	}
	/* the repository root: the directory holding ctests/check.h, found from
	 * the working directory upwards, or from this source file's path */
	const char *starts[2] = { ".", __FILE__ };
	for (int s = 0; s < 2; s++) {
		char base[2048];
		snprintf(base, sizeof(base), "%s", starts[s]);
		if (s == 1) {
			char *slash = strrchr(base, '/');
			if (!slash)
				continue;
			*slash = 0;         /* .../ctests */
		}
		for (int up = 0; up < 5; up++) {
			snprintf(buf, sizeof(buf), "%s/ctests/check.h", base);
			if (is_file(buf)) {
				snprintf(out, len, "%s/../shared/reference/intel-perfmon", base);
				return is_dir(out);
			}
			size_t n = strlen(base);
			if (n + 4 >= sizeof(base))
				break;
			strcat(base, "/..");
		}
	}
	return 0;
}

/* ---------------------------------------------------------------- uncore */

struct unit_map {
	const char *unit;      /* Intel's Unit */
	const char *pmu;       /* pmon PMU instance used for the comparison */
	const char *filter;    /* Intel's filter register prefix(es) for this unit */
};
static const struct unit_map units[] = {
	{ "CBO", "snbep_unc_cbo0", "CBoFilter" },
	{ "HA", "snbep_unc_ha", "HA_" },
	{ "iMC", "snbep_unc_imc0", NULL },
	{ "PCU", "snbep_unc_pcu", "PCUFilter" },
	{ "QPI LL", "snbep_unc_qpi0", NULL },
	{ "R2PCIe", "snbep_unc_r2pcie", NULL },
	{ "R3QPI", "snbep_unc_r3qpi0", NULL },
	{ "UBOX", "snbep_unc_ubo", "UBoxFilter" },
	{ NULL, NULL, NULL },
};

static const struct unit_map *find_unit(const char *u)
{
	for (int i = 0; units[i].unit; i++)
		if (!strcmp(units[i].unit, u))
			return &units[i];
	return NULL;
}

static uint64_t bitrange(unsigned hi, unsigned lo)
{
	uint64_t m = 0;
	for (unsigned b = lo; b <= hi && b < 64; b++)
		m |= 1ull << b;
	return m;
}

/* Intel's Filter column ("CBoFilter[22:18], CBoFilter[17:10]",
 * "HA_AddrMatch0[31:6], HA_AddrMatch1[13:0], HA_OpcodeMatch[5:0]") as bit
 * masks of pmon's filter words.  Returns -1 for a register it cannot place. */
static int intel_filter_mask(const char *f, uint64_t mask[2])
{
	mask[0] = mask[1] = 0;
	if (!f || !strcmp(f, "null") || !*f)
		return 0;
	const char *p = f;
	while (*p) {
		while (*p == ' ' || *p == ',')
			p++;
		if (!*p)
			break;
		char reg[64];
		unsigned hi, lo;
		int n = 0;
		if (sscanf(p, "%63[^[][%u:%u]%n", reg, &hi, &lo, &n) != 3 || !n)
			return -1;
		p += n;
		int word = 0, shift = 0;
		if (!strcmp(reg, "CBoFilter") || !strcmp(reg, "PCUFilter") || !strcmp(reg, "UBoxFilter") ||
		    !strcmp(reg, "HA_AddrMatch0"))
			word = 0;
		else if (!strcmp(reg, "HA_AddrMatch1"))
			shift = 32;
		else if (!strcmp(reg, "HA_OpcodeMatch"))
			word = 1;
		else
			return -1;
		mask[word] |= bitrange(hi + (unsigned)shift, lo + (unsigned)shift);
	}
	return 0;
}

/* pmon's filter fields in use, as bit masks per word (words 0 and 1). */
static void pmon_filter_mask(const struct pmon_box_type *t, uint32_t used, uint64_t mask[2])
{
	mask[0] = mask[1] = 0;
	for (int f = 0; f < t->nfields; f++)
		if ((used & (1u << f)) && t->fields[f].word < 2)
			mask[t->fields[f].word] |=
				bitrange(t->fields[f].shift + t->fields[f].width - 1u, t->fields[f].shift);
}

static int find_umask(const struct pmon_event *ev, const char *name)
{
	for (int u = 0; u < ev->numasks; u++)
		if (!strcasecmp(ev->umasks[u].name, name))
			return u;
	return -1;
}

static uint64_t field_bits(const struct pmon_filter_field *fd)
{
	return (fd->width >= 64 ? ~0ull : ((1ull << fd->width) - 1)) << fd->shift;
}

/* Complete "PMU::EVENT[:UMASK]" with what pmon needs to encode it: a umask
 * for every required group left empty (the first one of the group), and for
 * every required filter field no chosen umask fills, a umask of another
 * group that fills it or else a modifier.  Returns the filter fields the
 * event then depends on (event fields | chosen umasks' fields | the fields
 * given values), which is what Intel's Filter column describes. */
static uint32_t complete_name(const struct pmon_pmu *p, const struct pmon_event *ev, int um,
			      char *s, size_t len)
{
	const struct pmon_box_type *t = p->type;
	uint64_t chosen = um >= 0 ? 1ull << um : 0;
	uint32_t grps = um >= 0 ? 1u << ev->umasks[um].grp : 0;
	for (int u = 0; u < ev->numasks; u++)     /* the encoder's defaults */
		if ((ev->umasks[u].flags & PMON_UM_DEFAULT) && !(grps & (1u << ev->umasks[u].grp)))
			chosen |= 1ull << u;
	uint32_t need_grps = ev->need_grps | ((ev->flags & PMON_EV_NEED_UM) ? 1u : 0);
	for (int g = 0; g < 8; g++) {
		if (!(need_grps & (1u << g)))
			continue;
		int have = 0, first = -1;
		for (int u = 0; u < ev->numasks; u++)
			if (ev->umasks[u].grp == g) {
				have |= (chosen >> u) & 1;
				if (first < 0)
					first = u;
			}
		if (!have && first >= 0) {
			chosen |= 1ull << first;
			grps |= 1u << g;
			size_t n = strlen(s);
			snprintf(s + n, len - n, ":%s", ev->umasks[first].name);
		}
	}
	uint32_t need = ev->fields, filled = 0;
	for (int u = 0; u < ev->numasks; u++)
		if (chosen & (1ull << u)) {
			need |= ev->umasks[u].fields;
			for (int f = 0; f < t->nfields; f++) {
				const struct pmon_filter_field *fd = &t->fields[f];
				if (fd->word < 2 && (ev->umasks[u].filt_set[fd->word] & field_bits(fd)))
					filled |= 1u << f;
			}
		}
	for (int f = 0; f < t->nfields; f++) {
		if (!((need & ~filled) & (1u << f)))
			continue;
		const struct pmon_filter_field *fd = &t->fields[f];
		int done = 0;
		/* a umask of a group not named yet that fills the field (CBo OPC_*) */
		for (int u = 0; u < ev->numasks && !done; u++) {
			const struct pmon_umask *w = &ev->umasks[u];
			if ((chosen & (1ull << u)) || (grps & (1u << w->grp)) || fd->word >= 2 ||
			    !(w->filt_set[fd->word] & field_bits(fd)))
				continue;
			chosen |= 1ull << u;
			grps |= 1u << w->grp;
			filled |= 1u << f;
			need |= w->fields;
			size_t n = strlen(s);
			snprintf(s + n, len - n, ":%s", w->name);
			done = 1;
		}
		for (int m = 0; m < t->nmods && !done; m++) {
			const struct pmon_modifier *md = &t->mods[m];
			if (md->kind == PMON_MOD_CTL)
				continue;
			int mf = md->field;
			if (mf == PMON_FIELD_EVENT) {
				mf = -1;
				for (int k = 0; k < t->nfields && mf < 0; k++)
					if (ev->fields & (1u << k))
						mf = k;
			}
			if (mf != f)
				continue;
			size_t n = strlen(s);
			snprintf(s + n, len - n, ":%s=%s", md->name, md->kind == PMON_MOD_ADDR ? "0x1000" : "1");
			filled |= 1u << f;
			done = 1;
		}
	}
	return need;
}

static int is_covered_unit(const char *u)
{
	return find_unit(u) != NULL || !strcmp(u, "IRP");
}

static void record(const char *unit, const char *name, int kind, const char *detail)
{
	n_compared++;
	int row = div_find_intel(unit, name);
	if (!kind) {
		n_equal++;
		CHECK(row < 0 || strchr(pmon_divergences[row].match, '*'),
		      "divergence row '%s' covers %s/%s, which now agrees with pmon: remove the row",
		      row >= 0 ? pmon_divergences[row].match : "", unit, name);
		return;
	}
	if (row < 0) {
		n_unexplained++;
		CHECK(0, "UNEXPLAINED %s/%s: %s: %s", unit, name, div_kind_name(kind), detail);
		return;
	}
	if ((int)pmon_divergences[row].kind != kind) {
		n_unexplained++;
		CHECK(0, "divergence row '%s' says '%s' but %s/%s shows '%s': %s", pmon_divergences[row].match,
		      div_kind_name(pmon_divergences[row].kind), unit, name, div_kind_name(kind), detail);
		return;
	}
	n_divergent++;
	row_hits[row]++;
}

static void compare_uncore_entry(const json_t *r)
{
	const char *unit = jget(r, "Unit"), *name = jget(r, "EventName");
	const char *ecs = jget(r, "EventCode"), *ums = jget(r, "UMask");
	const char *exs = jget(r, "ExtSel"), *flt = jget(r, "Filter");
	if (!unit || !name || !ecs || !ums) {
		CHECK(0, "malformed Intel entry");
		return;
	}
	if (!is_covered_unit(unit))
		return;

	/* not in the E5-2600 guide: pmon has no counterpart on purpose */
	int nig = div_find_not_in_guide(unit, name);
	const struct unit_map *um = find_unit(unit);

	char evname[256], umname[128] = "";
	snprintf(evname, sizeof(evname), "%s", name);
	char *dot = strchr(evname, '.');
	if (dot) {
		snprintf(umname, sizeof(umname), "%s", dot + 1);
		*dot = 0;
	}
	const struct pmon_pmu *p = NULL;
	const struct pmon_event *ev = NULL;
	int u = -1;
	if (um) {
		int pi = pmon_catalog_find(um->pmu);
		p = pi >= 0 ? pmon_catalog_pmu(pi) : NULL;
		int e = p ? pmon_catalog_event(p, evname) : -1;
		ev = e >= 0 ? &p->type->events[e] : NULL;
		u = ev && umname[0] ? find_umask(ev, umname) : -1;
	}
	int has_pmon = ev && (!umname[0] || u >= 0);

	if (nig >= 0) {
		n_compared++;
		if (has_pmon) {
			n_unexplained++;
			CHECK(0, "%s/%s is listed as not in the E5-2600 guide, but pmon has it: remove "
			      "the not-in-guide entry or compare it", unit, name);
		} else {
			n_not_in_guide++;
			nig_hits[nig]++;
		}
		return;
	}
	if (!has_pmon) {
		char d[1024];
		snprintf(d, sizeof(d), "pmon has no %s%s%s on %s", evname, umname[0] ? ":" : "", umname,
			 um ? um->pmu : "(no pmon box)");
		record(unit, name, DIV_NO_PMON, d);
		return;
	}

	char s[512];
	snprintf(s, sizeof(s), "%s::%s%s%s", p->name, ev->name, u >= 0 ? ":" : "",
		 u >= 0 ? ev->umasks[u].name : "");
	uint32_t need = complete_name(p, ev, u, s, sizeof(s));
	pmon_encoding_t enc;
	char err[256];
	int rc = pmon_encode(s, 0, 0, &enc, err, sizeof(err));
	if (rc) {
		char d[1200];
		snprintf(d, sizeof(d), "pmon refuses '%s': %s", s, err);
		record(unit, name, DIV_PMON_REFUSES, d);
		return;
	}
	unsigned icode = (unsigned)strtoul(ecs, NULL, 16), iumask = (unsigned)strtoul(ums, NULL, 16);
	unsigned iext = exs ? (unsigned)strtoul(exs, NULL, 0) : 0;
	unsigned pcode, pumask, pext;
	if (enc.fixed) {
		pcode = ev->code;
		pumask = 0;
		pext = ev->ext;
	} else {
		pcode = (unsigned)(enc.ctl & 0xff);
		pumask = (unsigned)((enc.ctl >> 8) & 0xff);
		pext = (unsigned)((enc.ctl >> 21) & 1);
	}
	int kind = 0;
	if (pcode != icode || pumask != iumask || pext != iext)
		kind |= DIV_CODE;
	uint64_t im[2], pm[2];
	int fr = intel_filter_mask(flt, im);
	CHECK(fr == 0, "%s/%s: cannot read Intel's Filter '%s'", unit, name, flt ? flt : "");
	pmon_filter_mask(p->type, need, pm);
	if (fr == 0 && (im[0] != pm[0] || im[1] != pm[1]))
		kind |= DIV_INTEL_FILTER;
	char d[1600];
	snprintf(d, sizeof(d), "Intel code 0x%x umask 0x%x ext %u filter '%s' (0x%" PRIx64 ",0x%" PRIx64
		 "); pmon '%s': code 0x%x umask 0x%x ext %u%s filter fields 0x%" PRIx64 ",0x%" PRIx64,
		 icode, iumask, iext, flt ? flt : "", im[0], im[1], s, pcode, pumask, pext,
		 enc.fixed ? " (fixed counter)" : "", pm[0], pm[1]);
	record(unit, name, kind, d);
}

/* pmon events/umasks no Intel entry names (reported, not failures). */
static void pmon_not_in_intel(const json_t *events)
{
	int n = 0;
	for (int i = 0; units[i].unit; i++) {
		int pi = pmon_catalog_find(units[i].pmu);
		if (pi < 0)
			continue;
		const struct pmon_pmu *p = pmon_catalog_pmu(pi);
		for (int e = 0; e < p->nevents; e++) {
			const struct pmon_event *ev = &p->type->events[e];
			int found = 0;
			for (size_t r = 0; r < json_array_size(events) && !found; r++) {
				const char *unit = jget(json_array_get(events, r), "Unit");
				const char *name = jget(json_array_get(events, r), "EventName");
				size_t l = strlen(ev->name);
				if (unit && name && !strcmp(unit, units[i].unit) && !strncasecmp(name, ev->name, l) &&
				    (name[l] == 0 || name[l] == '.'))
					found = 1;
			}
			if (!found) {
				printf("  pmon event not in Intel's data: %s::%s\n", p->name, ev->name);
				n++;
			}
		}
	}
	printf("intel compare: %d pmon uncore events have no Intel entry\n", n);
}

/* --------------------------------------------------------------- offcore */

/* Intel's offcore bit and matrix names -> pmon's snb_ep umasks (a
 * colon-separated list when pmon has no single umask for the combination). */
struct oc_map {
	const char *intel;
	const char *pmon;
};
static const struct oc_map oc_names[] = {
	/* requests (Type 1, RSP bits 15:0) */
	{ "DEMAND_DATA_RD", "DMND_DATA_RD" }, { "DEMAND_RFO", "DMND_RFO" },
	{ "DEMAND_CODE_RD", "DMND_IFETCH" }, { "COREWB", "WB" },
	{ "PF_L2_DATA_RD", "PF_DATA_RD" }, { "PF_L2_RFO", "PF_RFO" },
	{ "PF_L2_CODE_RD", "PF_IFETCH" }, { "PF_LLC_DATA_RD", "PF_LLC_DATA_RD" },
	{ "PF_LLC_RFO", "PF_LLC_RFO" }, { "PF_LLC_CODE_RD", "PF_LLC_IFETCH" },
	{ "SPLIT_LOCK_UC_LOCK", "BUS_LOCKS" }, { "STREAMING_STORES", "STRM_ST" },
	{ "OTHER", "OTHER" },
	{ "ALL_PF_DATA_RD", "PF_DATA_RD:PF_LLC_DATA_RD" }, { "ALL_PF_RFO", "PF_RFO:PF_LLC_RFO" },
	{ "ALL_PF_CODE_RD", "PF_IFETCH:PF_LLC_IFETCH" }, { "ALL_DATA_RD", "ANY_DATA" },
	{ "ALL_RFO", "ANY_RFO" }, { "ALL_CODE_RD", "ANY_IFETCH" },
	{ "ALL_READS", "ANY_DATA:ANY_RFO:ANY_IFETCH" }, { "ALL_REQUESTS", "ANY_REQUEST" },
	/* any response (Type 2, bit 16) */
	{ "ANY_RESPONSE", "ANY_RESPONSE" },
	/* suppliers (Type 3, bits 30:17) */
	{ "SUPPLIER_NONE", "NO_SUPP" }, { "LLC_HIT_M", "LLC_HITM" }, { "LLC_HIT_E", "LLC_HITE" },
	{ "LLC_HIT_S", "LLC_HITS" }, { "LLC_HIT_F", "LLC_HITF" }, { "LLC_HIT", "LLC_HITMESF" },
	{ "L3_MISS_LOCAL_DRAM", "LLC_MISS_LOCAL_DRAM" },
	{ "L3_MISS_REMOTE_DRAM", "LLC_MISS_REMOTE_DRAM" },
	/* snoop results (Type 4, bits 37:31) */
	{ "SNOOP_NONE", "SNP_NONE" }, { "SNOOP_NOT_NEEDED", "SNP_NOT_NEEDED" },
	{ "SNOOP_MISS", "SNP_MISS" }, { "SNOOP_HIT_NO_FWD", "SNP_NO_FWD" },
	{ "SNOOP_HIT_WITH_FWD", "SNP_FWD" }, { "SNOOP_HITM", "HITM" },
	{ "SNOOP_NON_DRAM", "NON_DRAM" }, { "ANY_SNOOP", "SNP_ANY" },
	/* matrix responses: supplier.snoop */
	{ "LLC_HIT.ANY_RESPONSE", "LLC_HITMESF:SNP_ANY" },
	{ "LLC_HIT.NO_SNOOP_NEEDED", "LLC_HITMESF:SNP_NOT_NEEDED" },
	{ "LLC_HIT.SNOOP_MISS", "LLC_HITMESF:SNP_MISS" },
	{ "LLC_HIT.HIT_OTHER_CORE_NO_FWD", "LLC_HITMESF:SNP_NO_FWD" },
	{ "LLC_HIT.HITM_OTHER_CORE", "LLC_HITMESF:HITM" },
	{ "LLC_MISS.ANY_RESPONSE", "L3_MISS:SNP_ANY" },
	{ "LLC_MISS.LOCAL_DRAM", "LLC_MISS_LOCAL_DRAM:SNP_MISS:SNP_NO_FWD" },
	{ "LLC_MISS.ANY_DRAM", "L3_MISS:SNP_MISS:SNP_NO_FWD" },
	{ NULL, NULL },
};

static const char *oc_pmon_name(const char *intel)
{
	for (int i = 0; oc_names[i].intel; i++)
		if (!strcmp(oc_names[i].intel, intel))
			return oc_names[i].pmon;
	return NULL;
}

/* RSP bits each part of the value lives in. */
#define OC_REQ_BITS  0xffffull
#define OC_ANY_BIT   (1ull << 16)
#define OC_SUP_BITS  (((1ull << 31) - 1) & ~((1ull << 17) - 1))
#define OC_SNP_BITS  (((1ull << 38) - 1) & ~((1ull << 31) - 1))

/* Encode snb_ep::OFFCORE_RESPONSE_0 with these umasks plus fillers for the
 * parts not under test; the RSP value, or -1 (err set) if pmon refuses. */
static int oc_encode(const char *umasks, int part, uint64_t *rsp, char *s, size_t slen,
		     char *err, size_t errlen)
{
	const char *fill = part == 1 ? ":ANY_RESPONSE" :           /* request under test */
			   part == 2 ? ":ANY_REQUEST" :            /* ANY_RESPONSE */
			   part == 3 ? ":ANY_REQUEST:SNP_ANY" :    /* supplier */
			   part == 4 ? ":ANY_REQUEST:LLC_HITMESF" : /* snoop */
				       ":ANY_REQUEST";             /* supplier.snoop */
	snprintf(s, slen, "snb_ep::OFFCORE_RESPONSE_0:%s%s:cpu=0", umasks, fill);
	pmon_encoding_t e;
	if (pmon_encode(s, 0, 0, &e, err, errlen))
		return -1;
	*rsp = e.filt[0];
	return 0;
}

static void oc_compare(const char *name, uint64_t want, int part)
{
	static const uint64_t masks[] = { 0, OC_REQ_BITS, OC_ANY_BIT, OC_SUP_BITS, OC_SNP_BITS,
					  OC_ANY_BIT | OC_SUP_BITS | OC_SNP_BITS };
	const char *pm = oc_pmon_name(name);
	char d[1024], s[512], err[256];
	if (!pm) {
		snprintf(d, sizeof(d), "no pmon umask mapping for '%s' (value 0x%" PRIx64 ")", name, want);
		record("MATRIX", name, DIV_NO_PMON, d);
		return;
	}
	uint64_t rsp;
	if (oc_encode(pm, part, &rsp, s, sizeof(s), err, sizeof(err))) {
		snprintf(d, sizeof(d), "pmon refuses '%s': %s", s, err);
		record("MATRIX", name, DIV_PMON_REFUSES, d);
		return;
	}
	uint64_t got = rsp & masks[part];
	snprintf(d, sizeof(d), "Intel 0x%" PRIx64 ", pmon '%s' gives 0x%" PRIx64 " (RSP 0x%" PRIx64 ")",
		 want, s, got, rsp);
	record("MATRIX", name, got == want ? 0 : DIV_CODE, d);
}

static uint64_t bit_list(const char *s)
{
	uint64_t v = 0;
	while (s && *s) {
		char *end;
		unsigned long b = strtoul(s, &end, 10);
		if (end == s)
			break;
		if (b < 64)
			v |= 1ull << b;
		s = *end == ',' ? end + 1 : end;
	}
	return v;
}

static void compare_offcore(const char *dir)
{
	char path[4352], err[256];
	int c0 = n_compared, e0 = n_equal, d0 = n_divergent, u0 = n_unexplained;
	if (pmon_pmu_find("snb_ep") < 0) {
		n_unexplained++;
		CHECK(0, "pmon has no snb_ep core PMU: the offcore matrix cannot be compared");
		return;
	}
	json_t *doc, *bits, *mat, *rec;
	size_t i;
	snprintf(path, sizeof(path), "%s/Jaketown_matrix_bit_definitions.json", dir);
	bits = load_events(path, &doc, err, sizeof(err));
	CHECK(bits != NULL, "%s: %s", path, err);
	json_array_foreach(bits, i, rec) {
		const char *n = jget(rec, "BitName");
		const char *idx = jget(rec, "BitIndex");
		const char *ty = jget(rec, "Type");
		int part = ty ? atoi(ty) : 0;
		CHECK(n && idx && part >= 1 && part <= 4, "malformed bit definition %zu", i);
		if (n && idx && part >= 1 && part <= 4)
			oc_compare(n, bit_list(idx), part);
	}
	json_decref(doc);
	snprintf(path, sizeof(path), "%s/Jaketown_matrix.json", dir);
	mat = load_events(path, &doc, err, sizeof(err));
	CHECK(mat != NULL, "%s: %s", path, err);
	json_array_foreach(mat, i, rec) {
		const char *rq = jget(rec, "MATRIX_REQUEST");
		const char *rs = jget(rec, "MATRIX_RESPONSE");
		const char *v = jget(rec, "MATRIX_VALUE");
		if (!rq || !rs || !v) {
			CHECK(0, "malformed matrix entry %zu", i);
			continue;
		}
		uint64_t val = strtoull(v, NULL, 16);
		if (strcmp(rq, "Null"))
			oc_compare(rq, val, 1);
		else
			oc_compare(rs, val, 5);
	}
	json_decref(doc);
	printf("intel compare: offcore matrix (snb_ep): %d compared, %d equal, %d divergent "
	       "(documented), %d unexplained\n", n_compared - c0, n_equal - e0, n_divergent - d0,
	       n_unexplained - u0);
}

int main(void)
{
	char dir[4096], path[4352], err[256];
	row_hits = calloc((size_t)pmon_ndivergences + 1, sizeof(int));
	nig_hits = calloc((size_t)pmon_nnot_in_guide + 1, sizeof(int));
	dir[0] = 0;
	if (!find_data(dir, sizeof(dir))) {
		char why[4200];
		const char *env = getenv("PMON_SHARED");
		if (env && *env)
			snprintf(why, sizeof(why), "Intel's event data not found: %s (from PMON_SHARED) "
				 "is not a directory", dir);
		else if (dir[0])
			snprintf(why, sizeof(why), "Intel's event data not found: %s is not a directory "
				 "(../shared beside the repository; or set PMON_SHARED)", dir);
		else
			snprintf(why, sizeof(why), "Intel's event data not found: the repository root "
				 "was not found from here (set PMON_SHARED)");
		free(row_hits);
		free(nig_hits);
		return check_skip("test_intel_compare", why);
	}

	json_t *doc, *unc = NULL, *rec;
	size_t i;
	snprintf(path, sizeof(path), "%s/Jaketown_uncore.json", dir);
	unc = load_events(path, &doc, err, sizeof(err));
	CHECK(unc != NULL, "%s: %s", path, err);
	if (unc) {
		CHECK(json_array_size(unc) > 500, "Jaketown_uncore.json: only %zu entries", json_array_size(unc));
		json_array_foreach(unc, i, rec)
			compare_uncore_entry(rec);
		pmon_not_in_intel(unc);
	}
	int unc_compared = n_compared, unc_equal = n_equal, unc_div = n_divergent,
	    unc_nig = n_not_in_guide, unc_un = n_unexplained;
	printf("intel compare: uncore: %d compared, %d equal, %d divergent (documented), "
	       "%d not in the E5-2600 guide (documented), %d unexplained\n",
	       unc_compared, unc_equal, unc_div, unc_nig, unc_un);

	compare_offcore(dir);

	for (int i = 0; i < pmon_ndivergences; i++)
		if (pmon_divergences[i].source == DIV_INTEL)
			CHECK(row_hits[i] > 0, "Intel divergence row '%s' (%s) matched no real difference: "
			      "fixed? remove it from ctests/divergences.c and doc/divergences.md",
			      pmon_divergences[i].match, div_kind_name(pmon_divergences[i].kind));
	for (int i = 0; i < pmon_nnot_in_guide; i++)
		CHECK(nig_hits[i] > 0, "not-in-guide entry %s/%s matched no Intel entry without a pmon "
		      "counterpart: remove it", pmon_not_in_guide[i].unit,
		      pmon_not_in_guide[i].event ? pmon_not_in_guide[i].event : "*");
	printf("intel compare: %d compared, %d equal, %d divergent (documented), %d not in the "
	       "E5-2600 guide (documented), %d unexplained\n", n_compared, n_equal, n_divergent,
	       n_not_in_guide, n_unexplained);
	json_decref(doc);
	free(row_hits);
	free(nig_hits);
	return check_done("test_intel_compare");
}
