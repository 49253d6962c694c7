/*
 * names.c - the names users of perf and Intel's event lists type, mapped to
 * pmon's (names.h has the tables):
 *
 *   uncore_imc_0/cas_count_read/                 perf, one box
 *   uncore_imc/cas_count_read/                   perf, every box (summed)
 *   uncore_cbox_0/event=0x34,umask=0x03/         perf format fields
 *   UNC_M_CAS_COUNT.RD                           Intel, every box (summed)
 *
 * each optionally followed by :socket=N or :cpu=N (Intel's names also by
 * pmon's :ATTR=VALUE).  A perf name's fields are the register bits the
 * kernel would program; pmon's name is found from the event tables (the
 * event of that code, the fewest umasks whose bits make up the umask and
 * the filter fields they write, modifiers for the other bits) and checked
 * by encoding it: the control word must be the same bits, and so must
 * every filter field the name gives.  Filter fields an event needs that
 * the name leaves out get pmon's defaults, which the map's note names.
 */
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "pmon/pmon.h"
#include "catalog.h"
#include "generation.h"
#include "parse.h"
#include "why.h"

#define MAX_TERMS 24

/* What a perf name asks the registers to hold. */
struct perf_spec {
	const struct pmon_perf_pmu *pp;
	const struct pmon_box_type *t;
	int instance;              /* -1: every instance */
	uint64_t ctl, filt;        /* control (config) and filter (config1) bits */
	uint64_t ctl_given, filt_given;   /* the bits of the fields named */
	int has_event;
	const struct pmon_perf_alias *alias;   /* the alias used, if one */
};

/* Box type name of generation gen. */
static const struct pmon_box_type *box_type(const struct pmon_generation *gen, const char *name)
{
	int n;
	const struct pmon_pmu *p = pmon_catalog(&n);
	for (int i = 0; i < n; i++)
		if (p[i].gen == gen && !strcmp(p[i].type->name, name))
			return p[i].type;
	return NULL;
}

/* The catalogue name of instance i of box type t. */
static const char *instance_name(const struct pmon_box_type *t, int i)
{
	int n;
	const struct pmon_pmu *p = pmon_catalog(&n);
	for (int k = 0; k < n; k++)
		if (p[k].type == t && p[k].instance == i)
			return p[k].name;
	return NULL;
}

static int popcount64(uint64_t v)
{
	return __builtin_popcountll(v);
}

/* ------------------------------------------------------------ perf parsing */

/* The perf PMU of generation gen named name (with _N: instance N). */
static const struct pmon_perf_pmu *perf_pmu(const struct pmon_generation *gen, const char *name,
					    int *instance)
{
	for (const struct pmon_perf_pmu *pp = gen->perf_pmus; pp && pp->perf_name; pp++) {
		size_t l = strlen(pp->perf_name);
		if (strncmp(name, pp->perf_name, l))
			continue;
		if (!name[l]) {
			*instance = -1;
			return pp;
		}
		uint64_t v;
		if (name[l] == '_' && pmon_parse_u64(name + l + 1, &v) == 0 && name[l + 1] >= '0' &&
		    name[l + 1] <= '9' && v < 64) {
			*instance = (int)v;
			return pp;
		}
	}
	return NULL;
}

static void list_terms(const struct pmon_perf_pmu *pp, char *buf, size_t len)
{
	buf[0] = 0;
	for (const struct pmon_perf_format *f = pp->formats; f->name; f++)
		if (f->dest != PMON_PERF_REFUSED)
			pmon_why_add(buf, len, ", ", "%s", f->name);
	for (const struct pmon_perf_alias *a = pp->aliases; a && a->name; a++)
		pmon_why_add(buf, len, ", ", "%s", a->name);
}

static int perf_term(struct perf_spec *sp, const char *term, int depth, char *err, size_t errlen);

/* Terms separated by commas (modified in place). */
static int perf_terms(struct perf_spec *sp, char *terms, int depth, char *err, size_t errlen)
{
	int n = 0;
	for (char *t = terms, *next; t; t = next) {
		next = strchr(t, ',');
		if (next)
			*next++ = 0;
		if (!*t)
			return pmon_why(err, errlen, PMON_EQUAL, "empty term (doubled ',') in %s//",
					sp->pp->perf_name);
		if (++n > MAX_TERMS)
			return pmon_why(err, errlen, PMON_EQUAL, "too many terms");
		int rc = perf_term(sp, t, depth, err, errlen);
		if (rc)
			return rc;
	}
	return PMON_OK;
}

static int perf_term(struct perf_spec *sp, const char *term, int depth, char *err, size_t errlen)
{
	const struct pmon_perf_pmu *pp = sp->pp;
	char name[64], list[512];
	const char *eq = strchr(term, '=');
	size_t nl = eq ? (size_t)(eq - term) : strlen(term);
	if (nl >= sizeof(name))
		return pmon_why(err, errlen, PMON_EQUAL, "term '%s' too long", term);
	memcpy(name, term, nl);
	name[nl] = 0;
	if (!eq && depth == 0)
		for (const struct pmon_perf_alias *a = pp->aliases; a && a->name; a++)
			if (!strcmp(a->name, name)) {
				char terms[128];
				snprintf(terms, sizeof(terms), "%s", a->terms);
				sp->alias = a;
				return perf_terms(sp, terms, 1, err, errlen);
			}
	const struct pmon_perf_format *f = pp->formats;
	while (f->name && strcmp(f->name, name))
		f++;
	if (!f->name) {
		list_terms(pp, list, sizeof(list));
		return pmon_why(err, errlen, PMON_EQUAL, "'%s' is no format field or event of perf's %s "
				"(it has: %s)", name, pp->perf_name, list);
	}
	if (f->dest == PMON_PERF_REFUSED)
		return pmon_why(err, errlen, PMON_EQUAL, "%s's %s is not taken in perf's form; for %s",
				pp->perf_name, name, pp->refused_why);
	uint64_t v = 1;   /* a field named alone is 1, as perf reads it */
	if (eq && pmon_parse_u64(eq + 1, &v))
		return pmon_why(err, errlen, PMON_EQUAL, "malformed value '%s' for %s= (expected a number)",
				eq + 1, name);
	if (v > pmon_bits(f->width))
		return pmon_why(err, errlen, PMON_ERANGE, "%s=%s does not fit its %u bits", name,
				eq ? eq + 1 : "1", f->width);
	uint64_t bits, val;
	if (f->dest == PMON_PERF_EVENT_EXT) {
		bits = 0xffull | PMON_CTL_EV_SEL_EXT;
		val = (v & 0xff) | ((v >> 8) ? PMON_CTL_EV_SEL_EXT : 0);
	} else {
		bits = pmon_bits(f->width) << f->shift;
		val = v << f->shift;
	}
	uint64_t *given = f->dest == PMON_PERF_FILTER ? &sp->filt_given : &sp->ctl_given;
	uint64_t *word = f->dest == PMON_PERF_FILTER ? &sp->filt : &sp->ctl;
	if (*given & bits)
		return pmon_why(err, errlen, PMON_EQUAL, "%s given twice", name);
	*given |= bits;
	*word |= val;
	if (f->dest != PMON_PERF_FILTER && f->shift == 0)
		sp->has_event = 1;
	return PMON_OK;
}

/* ------------------------------------------------------ perf -> pmon event */

/* Umask bits of an event in a control word. */
static uint64_t umask_of(const struct pmon_event *ev, uint64_t ctl)
{
	return (ev->flags & PMON_EV_OCC) ? (ctl >> PMON_PCU_OCC_SEL_SHIFT) & 3 :
					   (ctl >> PMON_CTL_UMASK_SHIFT) & 0xff;
}

static uint64_t umask_bits(const struct pmon_event *ev)
{
	return (ev->flags & PMON_EV_OCC) ? 3ull << PMON_PCU_OCC_SEL_SHIFT : 0xffull << PMON_CTL_UMASK_SHIFT;
}

/* The filter bits of the fields a box has. */
static uint64_t field_bits(const struct pmon_box_type *t, uint32_t fields)
{
	uint64_t b = 0;
	for (int f = 0; f < t->nfields; f++)
		if ((fields & (1u << f)) && t->fields[f].word == 0)
			b |= pmon_bits(t->fields[f].width) << t->fields[f].shift;
	return b;
}

/* Append ":what" (umask) or ":what=v" (modifier) to name. */
static void add_attr(char *name, size_t len, const char *what, int has_value, unsigned long long v)
{
	size_t n = strlen(name);
	if (n >= len)
		return;
	if (has_value)
		snprintf(name + n, len - n, ":%s=%llu", what, v);
	else
		snprintf(name + n, len - n, ":%s", what);
}

/* pmon's name (without PMU and qualifier) of event ev for the bits of sp,
 * or an error saying which bits pmon has no name for. */
static int perf_name_for(const struct perf_spec *sp, const struct pmon_event *ev, char *name,
			 size_t len, char *err, size_t errlen)
{
	const struct pmon_box_type *t = sp->t;
	uint64_t um = umask_of(ev, sp->ctl);
	uint32_t written = 0;
	for (int u = 0; u < ev->numasks; u++)
		written |= pmon_umask_writes(t, &ev->umasks[u]);
	uint64_t fw = sp->filt & sp->filt_given & field_bits(t, written);
	uint64_t cov_u = 0, cov_f = 0, chosen = 0;

	snprintf(name, len, "%s", ev->name);
	if (ev->flags & PMON_EV_FIXED) {
		if (sp->ctl & ~0xffull)
			return pmon_why(err, errlen, PMON_EQUAL, "%s counts on the fixed counter: "
					"it takes no umask or other field", ev->name);
		return PMON_OK;
	}
	for (;;) {   /* the fewest umasks: the widest that adds bits first */
		int best = -1, score = -1;
		for (int u = 0; u < ev->numasks; u++) {
			const struct pmon_umask *m = &ev->umasks[u];
			uint64_t v = m->value, fs = m->filt_set[0];
			if ((chosen & (1ull << u)) || (v & ~um) || (fs & ~fw))
				continue;
			if (!((v & ~cov_u) | (fs & ~cov_f)))
				continue;
			if (popcount64(v) + popcount64(fs) > score) {
				score = popcount64(v) + popcount64(fs);
				best = u;
			}
		}
		if (best < 0)
			break;
		chosen |= 1ull << best;
		cov_u |= ev->umasks[best].value;
		cov_f |= ev->umasks[best].filt_set[0];
		add_attr(name, len, ev->umasks[best].name, 0, 0);
	}
	if (cov_u != um)
		return pmon_why(err, errlen, PMON_EUMASK, "umask=0x%llx of %s: bits 0x%llx are no umask "
				"of pmon's for it (pmon list %s)", (unsigned long long)um, ev->name,
				(unsigned long long)(um & ~cov_u), ev->name);
	if (cov_f != fw)
		return pmon_why(err, errlen, PMON_EUMASK, "filter bits 0x%llx given for %s are no "
				"umask of pmon's for it (pmon list %s)",
				(unsigned long long)(fw & ~cov_f), ev->name, ev->name);
	/* the other control bits and filter fields through the modifiers */
	uint64_t rest = sp->ctl & ~(0xffull | PMON_CTL_EV_SEL_EXT | umask_bits(ev));
	uint64_t frest = sp->filt & sp->filt_given & ~fw;
	for (int m = 0; m < t->nmods; m++) {
		const struct pmon_modifier *md = &t->mods[m];
		if (!pmon_catalog_mod_ok(t, ev, m))
			continue;
		if (md->kind == PMON_MOD_CTL) {
			uint64_t v = (rest >> md->shift) & pmon_bits(md->width);
			if (v)
				add_attr(name, len, md->name, 1, v);
			rest &= ~(pmon_bits(md->width) << md->shift);
			continue;
		}
		if (md->kind != PMON_MOD_FILTER)
			continue;
		int f = md->field;
		if (f == PMON_FIELD_EVENT)
			for (f = 0; f < t->nfields && !(ev->fields & (1u << f)); f++)
				;
		if (f >= t->nfields || t->fields[f].word != 0)
			continue;
		const struct pmon_filter_field *fd = &t->fields[f];
		unsigned w = md->width ? md->width : fd->width, at = fd->shift + md->shift;
		uint64_t v = (frest >> at) & pmon_bits(w);
		int with_ctl = md->ctl_also && (rest & md->ctl_also);
		if (v || with_ctl)
			add_attr(name, len, md->name, 1, v);
		if (v || with_ctl) {
			frest &= ~(pmon_bits(w) << at);
			rest &= ~(uint64_t)md->ctl_also;
		}
	}
	if (rest)
		return pmon_why(err, errlen, PMON_EQUAL, "control bits 0x%llx do not apply to %s",
				(unsigned long long)rest, ev->name);
	if (frest)
		return pmon_why(err, errlen, PMON_EQUAL, "filter bits 0x%llx do not apply to %s",
				(unsigned long long)frest, ev->name);
	return PMON_OK;
}

/* The encoding of pmon's name must be the kernel's bits; filter fields the
 * name leaves out that pmon fills are noted. */
static int perf_check(const struct perf_spec *sp, const char *full, char *note, size_t notelen,
		      char *err, size_t errlen)
{
	pmon_encoding_t e;
	char why[512];
	int rc = pmon_encode(full, 0, 0, &e, why, sizeof(why));
	if (rc)
		return pmon_why(err, errlen, rc, "%s", why);
	if (!e.fixed && e.ctl != sp->ctl)
		return pmon_why(err, errlen, PMON_EQUAL, "pmon's %s programs control 0x%llx where the "
				"kernel would program 0x%llx", full, (unsigned long long)e.ctl,
				(unsigned long long)sp->ctl);
	if ((e.filt[0] & sp->filt_given) != (sp->filt & sp->filt_given))
		return pmon_why(err, errlen, PMON_EQUAL, "pmon's %s programs filter 0x%llx where the "
				"kernel would program 0x%llx", full,
				(unsigned long long)(e.filt[0] & sp->filt_given),
				(unsigned long long)(sp->filt & sp->filt_given));
	uint64_t extra = (e.filt_used & 1) ? e.filt[0] & ~sp->filt_given : 0;
	for (int f = 0; extra && f < sp->t->nfields; f++) {
		const struct pmon_filter_field *fd = &sp->t->fields[f];
		uint64_t v = (extra >> fd->shift) & pmon_bits(fd->width);
		if (fd->word || !v)
			continue;
		pmon_why_add(note, notelen, "; ", "filter field %s not given: pmon's default "
			     "0x%llx is used (the kernel would program 0 there)", fd->name,
			     (unsigned long long)v);
	}
	return PMON_OK;
}

/* The pmon names of perf name PMU/TERMS/QUAL on generation gen's perf PMU
 * pp (instance, -1: every one), added to out.  terms is modified. */
static int map_perf_gen(const struct pmon_generation *gen, const struct pmon_perf_pmu *pp,
			int instance, const char *name, const char *pmu, char *terms, const char *qual,
			pmon_name_map_t *out, char *err, size_t errlen)
{
	struct perf_spec sp;
	memset(&sp, 0, sizeof(sp));
	sp.pp = pp;
	sp.instance = instance;
	sp.t = box_type(gen, sp.pp->box);
	if (!sp.t)
		return pmon_why(err, errlen, PMON_EINVAL, "internal table error: no box %s", sp.pp->box);
	if (sp.instance >= 0 && (sp.instance >= sp.t->max_boxes || sp.t->max_boxes == 1))
		return pmon_why(err, errlen, PMON_ENOEVNT, "unknown perf PMU '%s': %s%s", pmu,
				sp.pp->perf_name, sp.t->max_boxes == 1 ? " has one instance, named without _N" :
				"");
	if (!terms[0])
		return pmon_why(err, errlen, PMON_EQUAL, "%s//: no event (e.g. %s/event=0x..,umask=0x../)",
				pmu, pmu);
	char given[PMON_MAX_NAME];
	snprintf(given, sizeof(given), "%s", terms);
	int rc = perf_terms(&sp, terms, 0, err, errlen);
	if (rc)
		return rc;
	if (!sp.has_event)
		return pmon_why(err, errlen, PMON_EQUAL, "%s/%s/ gives no event= field", pmu, given);

	/* the event of that code: the first whose name encodes to the bits */
	uint64_t code = sp.ctl & 0xff;
	int ext = (sp.ctl & PMON_CTL_EV_SEL_EXT) != 0, tried = 0, first_rc = PMON_EUMASK;
	char first_err[512] = "", short_name[PMON_MAX_NAME], full[PMON_MAX_NAME];
	const char *inst0 = instance_name(sp.t, sp.instance < 0 ? 0 : sp.instance);
	for (const struct pmon_event *ev = sp.t->events; ev->name; ev++) {
		int fixed = (ev->flags & PMON_EV_FIXED) != 0;
		if (fixed ? (code != 0xff || ext) : (ev->code != code || ev->ext != ext))
			continue;
		char why[512], note[256] = "";
		tried++;
		rc = perf_name_for(&sp, ev, short_name, sizeof(short_name), why, sizeof(why));
		if (!rc) {
			snprintf(full, sizeof(full), "%s::%s", inst0, short_name);
			rc = perf_check(&sp, full, note, sizeof(note), why, sizeof(why));
		}
		if (rc) {
			if (!first_err[0]) {
				snprintf(first_err, sizeof(first_err), "%s", why);
				first_rc = rc;
			}
			continue;
		}
		if (!out->ninstances) {
			out->form = PMON_FORM_PERF;
			if (sp.alias && sp.alias->scale) {
				out->perf_scale = strtod(sp.alias->scale, NULL);
				snprintf(out->perf_unit, sizeof(out->perf_unit), "%s", sp.alias->unit);
			}
			snprintf(out->note, sizeof(out->note), "%s", note);
		}
		for (int i = 0; i < sp.t->max_boxes && out->ninstances < PMON_MAX_INSTANCES; i++) {
			if (sp.instance >= 0 && i != sp.instance)
				continue;
			snprintf(out->pmon[out->ninstances++], PMON_MAX_NAME, "%s::%s%s",
				 instance_name(sp.t, i), short_name, qual);
		}
		return PMON_OK;
	}
	if (!tried)
		return pmon_why(err, errlen, PMON_ENOEVNT, "%s has no event %s=0x%llx%s (pmon list %s)",
				pmu, sp.pp->formats[0].name, (unsigned long long)code,
				ext ? " with the extra select bit" : "", sp.t->pmu_prefix);
	return pmon_why(err, errlen, first_rc, "%s: %s", name, first_err);
}

/* A perf name: the PMU may be several generations' (the kernel names the
 * Nehalem-EP and Westmere-EP uncore "uncore"): the names of each that
 * takes it, as an Intel name of several generations (a machine counts with
 * its own; pmon_machine_encode picks it). */
static int map_perf(const char *name, pmon_name_map_t *out, char *err, size_t errlen)
{
	char buf[PMON_MAX_NAME], pmu[64], list[512];
	if (strlen(name) >= sizeof(buf))
		return pmon_why(err, errlen, PMON_EINVAL, "event name too long");
	snprintf(buf, sizeof(buf), "%s", name);
	char *s1 = strchr(buf, '/'), *s2 = s1 ? strchr(s1 + 1, '/') : NULL;
	if (!s2)
		return pmon_why(err, errlen, PMON_ENOEVNT, "'%s': a perf name is PMU/TERMS/, e.g. "
				"uncore_imc_0/cas_count_read/", name);
	*s1 = *s2 = 0;
	const char *qual = s2 + 1;
	if (*qual && *qual != ':')
		return pmon_why(err, errlen, PMON_EQUAL, "'%s' after %s//: pmon takes only "
				":socket=N or :cpu=N there", qual, buf);
	if (strlen(buf) >= sizeof(pmu))
		return pmon_why(err, errlen, PMON_ENOEVNT, "unknown perf PMU '%s'", buf);
	memcpy(pmu, buf, strlen(buf) + 1);
	int found = 0, first_rc = PMON_OK;
	char first_err[512] = "";
	for (int g = 0; g < pmon_generation_count(); g++) {
		const struct pmon_generation *gen = pmon_generation_at(g);
		int instance;
		const struct pmon_perf_pmu *pp = perf_pmu(gen, pmu, &instance);
		if (!pp)
			continue;
		found++;
		char terms[PMON_MAX_NAME], why[512];
		snprintf(terms, sizeof(terms), "%s", s1 + 1);
		int rc = map_perf_gen(gen, pp, instance, name, pmu, terms, qual, out, why, sizeof(why));
		if (rc && !first_rc) {
			first_rc = rc;
			snprintf(first_err, sizeof(first_err), "%s", why);
		}
	}
	if (out->ninstances)
		return PMON_OK;
	if (found)
		return pmon_why(err, errlen, first_rc, "%s", first_err);
	list[0] = 0;
	for (int g = 0; g < pmon_generation_count(); g++) {
		char one[sizeof(list)] = "";
		const struct pmon_generation *gen = pmon_generation_at(g);
		for (const struct pmon_perf_pmu *pp = gen->perf_pmus; pp && pp->perf_name; pp++)
			pmon_why_add(one, sizeof(one), ", ", "%s", pp->perf_name);
		pmon_why_add(list, sizeof(list), "; ", "%s has %s", gen->title,
			     one[0] ? one : "none in pmon (name its events the Intel way)");
	}
	return pmon_why(err, errlen, PMON_ENOEVNT, "unknown perf PMU '%s' (%s, with _N for one "
			"instance)", pmu, list);
}

/* -------------------------------------------------------------------- Intel */

static int map_intel(const char *name, pmon_name_map_t *out, char *err, size_t errlen)
{
	char ev[128], rest[PMON_MAX_NAME];
	size_t el = strcspn(name, ".:");
	if (el >= sizeof(ev) || strlen(name) >= sizeof(rest))
		return pmon_why(err, errlen, PMON_EINVAL, "event name too long");
	memcpy(ev, name, el);
	ev[el] = 0;
	const char *tail = name + el;
	if (*tail == '.') {
		/* the guide's umask of several words (UNC_IMC_WRITES.FULL.ANY)
		 * is the catalogue's with underscores (FULL_ANY) */
		snprintf(rest, sizeof(rest), ":%s", tail + 1);
		for (char *d = rest + 1; *d && *d != ':'; d++)
			*d = *d == '.' ? '_' : *d;
	} else {
		snprintf(rest, sizeof(rest), "%s", tail);
	}
	int n;
	const struct pmon_pmu *p = pmon_catalog(&n);
	/* every generation's box type that has the event: the machine counts
	 * with those it has (pmon_machine_encode_all) */
	out->ninstances = 0;
	for (int i = 0; i < n; i++) {
		const struct pmon_box_type *t = p[i].type;
		if (p[i].instance || t->space == PMON_SPACE_CORE)
			continue;
		int known = pmon_catalog_event(&p[i], ev) >= 0;
		for (const struct pmon_excluded_event *x = t->excluded; x && x->name && !known; x++)
			known = !strcasecmp(x->name, ev);
		if (!known)
			continue;
		out->form = PMON_FORM_INTEL;
		for (int k = 0; k < t->max_boxes && out->ninstances < PMON_MAX_INSTANCES; k++) {
			char *o = out->pmon[out->ninstances++];
			int w = snprintf(o, PMON_MAX_NAME, "%s::", instance_name(t, k));
			if (w < 0 || (size_t)w + strlen(ev) + strlen(rest) >= PMON_MAX_NAME)
				return pmon_why(err, errlen, PMON_EINVAL, "event name too long");
			strcat(strcat(o, ev), rest);
		}
	}
	if (out->ninstances)
		return PMON_OK;
	char gens[128] = "";
	for (int g = 0; g < pmon_generation_count(); g++)
		pmon_why_add(gens, sizeof(gens), " or ", "%s", pmon_generation_at(g)->title);
	return pmon_why(err, errlen, PMON_ENOEVNT, "unknown event '%s': no %s uncore box has it "
			"(pmon list shows them)", ev, gens);
}

/* ---------------------------------------------------------------- public */

int pmon_name_map(const char *name, pmon_name_map_t *out, char *err, size_t errlen)
{
	if (err && errlen)
		err[0] = 0;
	if (!name || !out)
		return pmon_why(err, errlen, PMON_EINVAL, "no event name");
	memset(out, 0, sizeof(*out));
	if (!strncasecmp(name, "pmon:::", 7))
		name += 7;
	if (strchr(name, '/'))
		return map_perf(name, out, err, errlen);
	if (!strstr(name, "::") && !strncasecmp(name, "UNC_", 4))
		return map_intel(name, out, err, errlen);
	if (strlen(name) >= PMON_MAX_NAME)
		return pmon_why(err, errlen, PMON_EINVAL, "event name too long");
	out->form = PMON_FORM_PMON;
	out->ninstances = 1;
	snprintf(out->pmon[0], PMON_MAX_NAME, "%s", name);
	return PMON_OK;
}

int pmon_event_unit(int pmu, int ev, int um, pmon_unit_t *out)
{
	const struct pmon_pmu *p = pmon_catalog_pmu(pmu);
	if (!p || !out || ev < 0 || ev >= p->nevents)
		return PMON_EINVAL;
	const struct pmon_event *e = &p->type->events[ev];
	if (um >= e->numasks)
		return PMON_EINVAL;
	out->unit = "";
	out->bytes = 0;
	for (const struct pmon_unit_row *r = p->gen ? p->gen->units : NULL; r && r->box; r++) {
		if (strcmp(r->box, p->type->name) || fnmatch(r->event, e->name, 0))
			continue;
		if (r->umask && (um < 0 || strcasecmp(r->umask, e->umasks[um].name)))
			continue;
		out->unit = r->unit;
		out->bytes = r->bytes;
		break;
	}
	return PMON_OK;
}

/* Edge detect, invert and threshold (and the PCU's occupancy edge and
 * invert, bits 31:30): with any of them a count is no longer of the unit. */
#define CTL_CHANGES_UNIT (PMON_CTL_EDGE | PMON_CTL_INVERT | 0xff000000ull)

int pmon_encoding_unit(const pmon_encoding_t *e, pmon_unit_t *out)
{
	const struct pmon_pmu *p = e ? pmon_catalog_pmu(e->pmu) : NULL;
	if (!p || !out || e->event < 0 || e->event >= p->nevents)
		return PMON_EINVAL;
	const struct pmon_event *ev = &p->type->events[e->event];
	if (!(ev->flags & PMON_EV_OFFCORE) && (e->ctl & CTL_CHANGES_UNIT)) {
		out->unit = "";
		out->bytes = 0;
		return PMON_OK;
	}
	int um = -1;
	if (!(ev->flags & (PMON_EV_OFFCORE | PMON_EV_FIXED)))
		for (int u = 0; u < ev->numasks && um < 0; u++)
			if (ev->umasks[u].value == umask_of(ev, e->ctl))
				um = u;
	return pmon_event_unit(e->pmu, e->event, um, out);
}
