/*
 * encode.c - parse an event name and encode it from the declarative tables.
 *
 *   [pmon:::]PMU::EVENT[:UMASK]...[:MOD=VALUE]...[:socket=N|:cpu=N]
 *
 * Names are case-insensitive.  The rules that combine umasks, filter fields
 * and modifiers are the ones documented in tables.h.  No register is touched.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "pmon/pmon.h"
#include "catalog.h"
#include "encode.h"
#include "generation.h"
#include "parse.h"
#include "why.h"

#define MAX_ATTRS 32

/* The field index a filter modifier targets for this event, or -1. */
static int mod_field(const struct pmon_box_type *t, const struct pmon_event *ev,
		     const struct pmon_modifier *m)
{
	if (m->kind == PMON_MOD_CTL)
		return -1;
	if (m->field != PMON_FIELD_EVENT)
		return m->field < t->nfields ? m->field : -1;
	for (int f = 0; f < t->nfields; f++)
		if (ev->fields & (1u << f))
			return f;
	return -1;
}

static void list_umasks(const struct pmon_event *ev, char *buf, size_t len)
{
	size_t n = 0;
	buf[0] = 0;
	for (int u = 0; u < ev->numasks && n + 1 < len; u++)
		n += (size_t)snprintf(buf + n, len - n, "%s%s", u ? ", " : "", ev->umasks[u].name);
	if (n >= len && len > 4)
		strcpy(buf + len - 4, "...");
}

/* The filter word an offcore event's response bits go to (its rsp field's). */
static int offcore_word(const struct pmon_box_type *t, const struct pmon_event *ev)
{
	for (int f = 0; f < t->nfields; f++)
		if (ev->fields & (1u << f))
			return t->fields[f].word;
	return 0;
}

/* What the phases of one encoding share. */
struct encode_state {
	const char *pmu_name;      /* for names and messages */
	const struct pmon_box_type *t;
	const struct pmon_event *ev;
	int is_core;
	int nsockets, ncpus;       /* bounds of socket=/cpu= (0: unchecked) */
	uint64_t um_chosen;        /* bit u: umask u applied */
	uint32_t grp_given;        /* bit g: a umask of group g was named */
	const char *modname[MAX_ATTRS], *modval[MAX_ATTRS];
	int nmods;                 /* modifiers named, resolved after the umasks */
	uint64_t mod_given;        /* bit m: box modifier m given */
	uint64_t mod_val[64];
	int socket, cpu;
	uint64_t ctl, filt[PMON_FILTER_WORDS];
	uint64_t ctl_um;           /* control bits the chosen umasks set (ctl_set) */
	uint32_t filled;           /* filter fields that received a value */
	uint32_t need;             /* filter fields the event needs */
	char *err;
	size_t errlen;
};

/* Resolve "name" among the box modifiers this event accepts; among entries of
 * one name the first accepted one wins (PCU occupancy events use their own
 * e/i entries). */
static int find_mod(const struct pmon_box_type *t, const struct pmon_event *ev,
		    uint32_t need, const char *name, int *exists)
{
	*exists = 0;
	for (int m = 0; m < t->nmods; m++) {
		const struct pmon_modifier *md = &t->mods[m];
		if (strcasecmp(md->name, name))
			continue;
		*exists = 1;
		if (ev->flags & PMON_EV_FIXED)
			continue;
		if (ev->mods & (1u << m))
			return m;
		int f = mod_field(t, ev, md);
		if (md->kind != PMON_MOD_CTL && f >= 0 && (need & (1u << f)))
			return m;
	}
	return -1;
}

static uint32_t chosen_fields(const struct encode_state *st)
{
	uint32_t need = st->ev->fields;
	for (int u = 0; u < st->ev->numasks; u++)
		if (st->um_chosen & (1ull << u))
			need |= st->ev->umasks[u].fields;
	return need;
}

/* socket=N or cpu=N. */
static int parse_qualifier(struct encode_state *st, const char *name, const char *val)
{
	int is_sock = !strcasecmp(name, "socket");
	uint64_t v;
	if (pmon_parse_u64(val, &v))
		return pmon_why(st->err, st->errlen, PMON_EQUAL,
				"malformed value '%s' for %s= (expected a number)", val, name);
	if (is_sock && st->is_core)
		return pmon_why(st->err, st->errlen, PMON_EQUAL,
				"%s counts per CPU: use cpu=N, not socket=", st->pmu_name);
	if (st->socket >= 0 || st->cpu >= 0)
		return pmon_why(st->err, st->errlen, PMON_EQUAL,
				"socket=/cpu= given more than once");
	int ns = st->nsockets, nc = st->ncpus;
	if (is_sock) {
		if (ns > 0 && v >= (uint64_t)ns)
			return pmon_why(st->err, st->errlen, PMON_ERANGE,
					"socket=%s out of range: this machine has %d socket%s (0-%d)",
					val, ns, ns == 1 ? "" : "s", ns - 1);
		if (v > 7)
			return pmon_why(st->err, st->errlen, PMON_ERANGE,
					"socket=%s out of range: pmon numbers sockets 0-7",
					val);
		st->socket = (int)v;
	} else {
		if (nc > 0 && v >= (uint64_t)nc)
			return pmon_why(st->err, st->errlen, PMON_ERANGE,
					"cpu=%s out of range: this machine has %d CPUs (0-%d)",
					val, nc, nc - 1);
		if (v > 4095)
			return pmon_why(st->err, st->errlen, PMON_ERANGE,
					"cpu=%s out of range: pmon numbers CPUs 0-4095", val);
		st->cpu = (int)v;
	}
	return PMON_OK;
}

/* A name attribute that is not NAME=VALUE: one of the event's umasks. */
static int parse_umask(struct encode_state *st, const char *attr)
{
	const struct pmon_event *ev = st->ev;
	char umlist[512];
	int found = pmon_box_umask(st->t, ev, attr);
	if (found < 0) {
		int exists;
		if (find_mod(st->t, ev, 0, attr, &exists) >= 0 || exists)
			return pmon_why(st->err, st->errlen, PMON_EQUAL,
					"modifier '%s' needs a value ('%s=N')", attr, attr);
		if (!ev->numasks)
			return pmon_why(st->err, st->errlen, PMON_EUMASK,
					"event %s takes no umask, but '%s' was given", ev->name, attr);
		list_umasks(ev, umlist, sizeof(umlist));
		return pmon_why(st->err, st->errlen, PMON_EUMASK,
				"umask '%s' is not valid for %s (valid: %s)", attr, ev->name, umlist);
	}
	if (st->um_chosen & (1ull << found))
		return pmon_why(st->err, st->errlen, PMON_EUMASK, "umask %s given twice",
				ev->umasks[found].name);
	st->um_chosen |= 1ull << found;
	st->grp_given |= 1u << ev->umasks[found].grp;
	return PMON_OK;
}

/* Phase 1: the attributes: umasks and qualifiers now; modifiers are kept to
 * be resolved once the umasks (and so the filter fields needed) are known. */
static int parse_attrs(struct encode_state *st, const char *evname, char **attrs, int nattrs)
{
	int rc;
	for (int a = 0; a < nattrs; a++) {
		char *eq = strchr(attrs[a], '=');
		if (!attrs[a][0])
			return pmon_why(st->err, st->errlen, PMON_EQUAL,
					"empty attribute in '%s' (doubled ':'?)", evname);
		if (!eq) {
			if ((rc = parse_umask(st, attrs[a])))
				return rc;
			continue;
		}
		*eq = 0;
		const char *name = attrs[a], *val = eq + 1;
		if (!name[0])
			return pmon_why(st->err, st->errlen, PMON_EQUAL,
					"modifier with no name ('=%s')", val);
		if (!val[0])
			return pmon_why(st->err, st->errlen, PMON_EQUAL,
					"modifier '%s=' has no value", name);
		if (!strcasecmp(name, "socket") || !strcasecmp(name, "cpu")) {
			if ((rc = parse_qualifier(st, name, val)))
				return rc;
			continue;
		}
		if (st->nmods >= MAX_ATTRS)
			return pmon_why(st->err, st->errlen, PMON_EQUAL, "too many modifiers");
		st->modname[st->nmods] = name;
		st->modval[st->nmods++] = val;
	}
	return PMON_OK;
}

/* Phase 2: the umask rules: exclusivity inside a group, defaults for groups
 * nothing was named in, groups that must not stay empty. */
static int umask_rules(struct encode_state *st)
{
	const struct pmon_event *ev = st->ev;
	char umlist[512];
	for (int u = 0; u < ev->numasks; u++) {
		const struct pmon_umask *um = &ev->umasks[u];
		if (!(st->um_chosen & (1ull << u)) || !(um->flags & PMON_UM_EXCL))
			continue;
		for (int w = 0; w < ev->numasks; w++)
			if (w != u && (st->um_chosen & (1ull << w)) && ev->umasks[w].grp == um->grp)
				return pmon_why(st->err, st->errlen, PMON_EUMASK,
						"umask %s of %s cannot be combined with %s",
						um->name, ev->name, ev->umasks[w].name);
	}
	for (int u = 0; u < ev->numasks; u++) {
		const struct pmon_umask *um = &ev->umasks[u];
		if ((um->flags & PMON_UM_DEFAULT) && !(st->grp_given & (1u << um->grp)))
			st->um_chosen |= 1ull << u;
	}
	uint32_t need_grps = ev->need_grps | ((ev->flags & PMON_EV_NEED_UM) ? 1u : 0);
	for (int g = 0; g < 8; g++) {
		if (!(need_grps & (1u << g)))
			continue;
		int have = 0;
		for (int u = 0; u < ev->numasks; u++)
			if ((st->um_chosen & (1ull << u)) && ev->umasks[u].grp == g)
				have = 1;
		if (have)
			continue;
		size_t n = 0;
		umlist[0] = 0;
		for (int u = 0; u < ev->numasks && n + 1 < sizeof(umlist); u++)
			if (ev->umasks[u].grp == g)
				n += (size_t)snprintf(umlist + n, sizeof(umlist) - n, "%s%s",
						      n ? ", " : "", ev->umasks[u].name);
		return pmon_why(st->err, st->errlen, PMON_EUMASK,
				"%s needs a umask%s from: %s", ev->name,
				(ev->flags & PMON_EV_OFFCORE) ? (g == 0 ? " (request)" : g == 1 ? " (response)" : "") : "",
				umlist);
	}
	return PMON_OK;
}

/* Phase 3: the control word and filter words the chosen umasks give; a
 * umask that writes a filter field is taken only where the event, or
 * another umask chosen with it, reads that field (OPC_RFO with OPCODE,
 * never with EVICTION: the filter is the box's, shared by its counters);
 * an offcore response's umasks follow their own rules (phase 2). */
static int umask_words(struct encode_state *st)
{
	const struct pmon_event *ev = st->ev;
	const struct pmon_box_type *t = st->t;
	uint64_t umask = 0;
	for (int u = 0; u < ev->numasks; u++) {
		if (!(st->um_chosen & (1ull << u)))
			continue;
		const struct pmon_umask *um = &ev->umasks[u];
		if (ev->flags & PMON_EV_OFFCORE)
			st->filt[offcore_word(t, ev)] |= um->value;
		else
			umask |= um->value;
		st->filt[0] |= um->filt_set[0];
		st->filt[1] |= um->filt_set[1];
		st->filled |= pmon_umask_writes(t, um);
		st->ctl_um |= um->ctl_set;
	}
	uint32_t reads = (ev->flags & PMON_EV_OFFCORE) ? ~0u : ev->fields;  /* offcore: own rules */
	for (int u = 0; u < ev->numasks; u++)
		if (st->um_chosen & (1ull << u))
			reads |= ev->umasks[u].fields & ((ev->umasks[u].flags & PMON_UM_SELF) ? ~0u :
					~pmon_umask_writes(t, &ev->umasks[u]));
	for (int u = 0; u < ev->numasks; u++) {
		uint32_t unread = (st->um_chosen & (1ull << u)) ?
				  pmon_umask_writes(t, &ev->umasks[u]) & ~reads : 0;
		if (unread)
			return pmon_why(st->err, st->errlen, PMON_EUMASK,
					"umask '%s' sets filter field %s, which %s with the other "
					"umasks given does not use", ev->umasks[u].name,
					t->fields[__builtin_ctz(unread)].name, ev->name);
	}
	if ((ev->flags & PMON_EV_FIXED) && st->nmods)
		return pmon_why(st->err, st->errlen, PMON_EQUAL,
				"%s counts on the fixed counter and takes no modifier ('%s' given)",
				ev->name, st->modname[0]);
	if (ev->flags & PMON_EV_OFFCORE)
		st->filled |= ev->fields;
	st->ctl = pmon_event_ctl(ev, umask) | st->ctl_um;
	return PMON_OK;
}

/* One modifier's value into the control word or its filter field. */
static int apply_modifier(struct encode_state *st, const char *name, const char *val)
{
	const struct pmon_event *ev = st->ev;
	const struct pmon_box_type *t = st->t;
	int exists;
	int m = find_mod(t, ev, st->need, name, &exists);
	if (m < 0) {
		if (!exists)
			return pmon_why(st->err, st->errlen, PMON_EQUAL,
					"unknown modifier '%s' for %s",
					name, st->pmu_name);
		return pmon_why(st->err, st->errlen, PMON_EQUAL,
				"modifier '%s' does not apply to %s%s",
				name, ev->name,
				t->mods[0].kind == PMON_MOD_CTL && ev->numasks ? " with the umasks given" : "");
	}
	const struct pmon_modifier *md = &t->mods[m];
	if (st->mod_given & (1ull << m))
		return pmon_why(st->err, st->errlen, PMON_EQUAL,
				"modifier '%s' given twice", md->name);
	uint64_t v;
	if (pmon_parse_u64(val, &v))
		return pmon_why(st->err, st->errlen, PMON_EQUAL,
				"malformed value '%s' for %s= (expected a number)", val, md->name);
	if (md->kind != PMON_MOD_ADDR && (v < md->min || v > md->max))
		return pmon_why(st->err, st->errlen, PMON_ERANGE,
				"%s=%s out of range %llu-%llu for %s",
				md->name, val, (unsigned long long)md->min,
				(unsigned long long)md->max, ev->name);
	st->mod_given |= 1ull << m;
	st->mod_val[m] = v;
	if (md->kind == PMON_MOD_CTL) {
		if (v > pmon_bits(md->width))
			return pmon_why(st->err, st->errlen, PMON_ERANGE,
					"%s=%s does not fit %u bits",
					md->name, val, md->width);
		if (st->ctl_um & (pmon_bits(md->width) << md->shift))
			return pmon_why(st->err, st->errlen, PMON_EQUAL,
					"modifier '%s' would change control bits the umask given "
					"already sets for %s", md->name, ev->name);
		st->ctl |= v << md->shift;
		return PMON_OK;
	}
	int f = mod_field(t, ev, md);
	const struct pmon_filter_field *fd = &t->fields[f];
	if (md->kind == PMON_MOD_ADDR) {
		/* the hardware compares address bits md->shift..top: any other
		 * bit set would be dropped or ignored, so the match would not be
		 * what was asked for */
		unsigned top = fd->shift + fd->width - 1;
		if ((v >> top) > 1)
			return pmon_why(st->err, st->errlen, PMON_ERANGE,
					"%s=%s is above physical address bit %u, the highest %s compares "
					"(largest %s=0x%llx)", md->name, val, top, st->pmu_name,
					md->name, (unsigned long long)md->max);
		if (v & pmon_bits(md->shift))
			return pmon_why(st->err, st->errlen, PMON_ERANGE,
					"%s=%s sets address bits below bit %u, which %s does not compare: "
					"it matches %llu KiB pages (physical address bits %u:%u); the page "
					"holding this address is %s=0x%llx", md->name, val, md->shift,
					st->pmu_name, (unsigned long long)(1ull << md->shift) / 1024,
					top, md->shift, md->name,
					(unsigned long long)(v & ~pmon_bits(md->shift)));
		st->filt[fd->word] |= v;
	} else {
		unsigned w = md->width ? md->width : fd->width;
		if (v > pmon_bits(w))
			return pmon_why(st->err, st->errlen, PMON_ERANGE,
					"%s=%s does not fit its %u-bit field %s", md->name, val, w, fd->name);
		st->filt[fd->word] |= v << (fd->shift + md->shift);
	}
	st->ctl |= md->ctl_also;
	st->filled |= 1u << f;
	st->need |= 1u << f;
	return PMON_OK;
}

/* Phase 4: the modifiers, in the order named. */
static int apply_modifiers(struct encode_state *st)
{
	st->need = chosen_fields(st);
	for (int i = 0; i < st->nmods; i++) {
		int rc = apply_modifier(st, st->modname[i], st->modval[i]);
		if (rc)
			return rc;
	}
	return PMON_OK;
}

/* Phase 5: every needed filter field has a value, and no reserved bit is set. */
static int check_words(const struct encode_state *st)
{
	const struct pmon_event *ev = st->ev;
	const struct pmon_box_type *t = st->t;
	uint32_t missing = st->need & ~st->filled;
	for (int f = 0; f < t->nfields; f++) {
		if (!(missing & (1u << f)))
			continue;
		const char *hint = NULL;
		for (int m = 0; m < t->nmods; m++) {
			const struct pmon_modifier *md = &t->mods[m];
			if (md->kind != PMON_MOD_CTL && mod_field(t, ev, md) == f) {
				hint = md->name;
				break;
			}
		}
		if (hint)
			return pmon_why(st->err, st->errlen, PMON_EQUAL,
					"%s needs a value for filter field %s: add :%s=N",
					ev->name, t->fields[f].name, hint);
		return pmon_why(st->err, st->errlen, PMON_EQUAL,
				"%s needs a value for filter field %s",
				ev->name, t->fields[f].name);
	}
	if (st->ctl & ~(uint64_t)t->ctl_valid && !(ev->flags & PMON_EV_OFFCORE))
		return pmon_why(st->err, st->errlen, PMON_EINVAL,
				"internal table error: %s encodes reserved control bits 0x%llx",
				ev->name, (unsigned long long)(st->ctl & ~(uint64_t)t->ctl_valid));
	for (int r = 0; r < t->nfregs; r++) {
		const struct pmon_filter_reg *fr = &t->fregs[r];
		if (fr->word < PMON_FILTER_WORDS && (st->filt[fr->word] & ~fr->valid))
			return pmon_why(st->err, st->errlen, PMON_ERANGE,
					"%s: value 0x%llx sets reserved bits of %s",
					ev->name, (unsigned long long)st->filt[fr->word], fr->name);
	}
	return PMON_OK;
}

/* Phase 6: the canonical name: PMU::EVENT, the umasks and modifiers in table
 * order, then the socket (uncore) or CPU. */
static int canonical_name(const struct encode_state *st, char *name, size_t len)
{
	const struct pmon_event *ev = st->ev;
	const struct pmon_box_type *t = st->t;
	size_t n = (size_t)snprintf(name, len, "%s::%s", st->pmu_name, ev->name);
	for (int u = 0; u < ev->numasks && n < len; u++)
		if (st->um_chosen & (1ull << u))
			n += (size_t)snprintf(name + n, len - n, ":%s", ev->umasks[u].name);
	for (int m = 0; m < t->nmods && n < len; m++)
		if (st->mod_given & (1ull << m))
			n += (size_t)snprintf(name + n, len - n,
					      t->mods[m].kind == PMON_MOD_ADDR ? ":%s=0x%llx" : ":%s=%llu",
					      t->mods[m].name, (unsigned long long)st->mod_val[m]);
	if (n >= len)
		return pmon_why(st->err, st->errlen, PMON_EINVAL, "event name too long");
	if (st->cpu >= 0)
		n += (size_t)snprintf(name + n, len - n, ":cpu=%d", st->cpu);
	else if (!st->is_core)
		n += (size_t)snprintf(name + n, len - n, ":socket=%d", st->socket < 0 ? 0 : st->socket);
	if (n >= len)
		return pmon_why(st->err, st->errlen, PMON_EINVAL, "event name too long");
	if (st->is_core && st->cpu < 0)
		return pmon_why(st->err, st->errlen, PMON_EQUAL, "%s counts per CPU: add :cpu=N",
				st->pmu_name);
	return PMON_OK;
}

/* Phase 7: an event that may program a whole-register matcher owns all of
 * it: it writes every bit (unset fields as 0) and shares it only with events
 * that want the identical setting. */
static void own_whole_registers(struct encode_state *st)
{
	const struct pmon_box_type *t = st->t;
	for (int r = 0; r < t->nfregs; r++) {
		if (!t->fregs[r].whole)
			continue;
		uint32_t word_fields = 0;
		int reachable = 0;
		for (int f = 0; f < t->nfields; f++)
			if (t->fields[f].word == t->fregs[r].word)
				word_fields |= 1u << f;
		for (int md = 0; md < t->nmods; md++) {
			int f = t->mods[md].kind != PMON_MOD_CTL ? mod_field(t, st->ev, &t->mods[md]) : -1;
			if ((st->ev->mods & (1u << md)) && f >= 0 && (word_fields & (1u << f)))
				reachable = 1;
		}
		if (reachable || (st->need & word_fields))
			st->need |= word_fields;
	}
}

/* Phases 1-7 for one event name of box type t (st: pmu_name, bounds, err). */
static int encode_event(struct encode_state *st, int e, const char *evname, char **attrs,
			int nattrs, pmon_encoding_t *out)
{
	int rc;
	st->socket = -1;
	st->cpu = -1;
	st->is_core = st->t->space == PMON_SPACE_CORE;
	if (e < 0) {
		for (const struct pmon_excluded_event *x = st->t->excluded; x && x->name; x++)
			if (!strcasecmp(x->name, evname))
				return pmon_why(st->err, st->errlen, PMON_ENOEVNT,
						"%s is not offered for PMU %s: %s (a documented "
						"divergence: doc/divergences.md, \"Not in the E5-2600 "
						"guide\")",
						x->name, st->pmu_name, x->why);
		return pmon_why(st->err, st->errlen, PMON_ENOEVNT, "unknown event '%s' for PMU %s",
				evname, st->pmu_name);
	}
	st->ev = &st->t->events[e];
	if ((rc = parse_attrs(st, evname, attrs, nattrs)) || (rc = umask_rules(st)))
		return rc;
	memset(out, 0, sizeof(*out));
	if ((rc = umask_words(st)) || (rc = apply_modifiers(st)) || (rc = check_words(st)) ||
	    (rc = canonical_name(st, out->name, sizeof(out->name))))
		return rc;
	own_whole_registers(st);

	out->event = e;
	out->socket = st->is_core ? -1 : (st->cpu >= 0 ? -1 : (st->socket < 0 ? 0 : st->socket));
	out->cpu = st->cpu;
	out->fixed = (st->ev->flags & PMON_EV_FIXED) != 0;
	out->ctl = st->ctl;
	out->cntmask = st->ev->cntmask;
	memcpy(out->filt, st->filt, sizeof(st->filt));
	out->fields_used = st->need;
	for (int f = 0; f < st->t->nfields; f++)
		if (st->need & (1u << f))
			out->filt_used |= 1u << st->t->fields[f].word;
	return PMON_OK;
}

int pmon_encode_pmu(int pmu_idx, const char *evname, char **attrs, int nattrs,
		    int nsockets, int ncpus, pmon_encoding_t *out, char *err, size_t errlen)
{
	struct encode_state st;
	memset(&st, 0, sizeof(st));
	const struct pmon_pmu *pmu = pmon_catalog_pmu(pmu_idx);
	st.pmu_name = pmu->name;
	st.t = pmu->type;
	st.nsockets = nsockets;
	st.ncpus = ncpus;
	st.err = err;
	st.errlen = errlen;
	int rc = encode_event(&st, pmon_catalog_event(pmu, evname), evname, attrs, nattrs, out);
	if (rc == PMON_OK)
		out->pmu = pmu_idx;
	return rc;
}

int pmon_encode_table(const struct pmon_box_type *t, const char *pmu_name, const char *evstr,
		      pmon_encoding_t *out, char *err, size_t errlen)
{
	char buf[PMON_MAX_NAME * 2];
	char *attrs[MAX_ATTRS];
	int nattrs = 0;
	struct encode_state st;

	if (err && errlen)
		err[0] = 0;
	if (!t || !pmu_name || !evstr || !out)
		return pmon_why(err, errlen, PMON_EINVAL, "no box type or event name");
	if (strlen(evstr) >= sizeof(buf))
		return pmon_why(err, errlen, PMON_EINVAL, "event name too long");
	strcpy(buf, evstr);
	for (char *p = strchr(buf, ':'); p; p = strchr(p, ':')) {
		if (nattrs >= MAX_ATTRS)
			return pmon_why(err, errlen, PMON_EQUAL, "too many attributes");
		*p++ = 0;
		attrs[nattrs++] = p;
	}
	int e = pmon_box_event(t, buf);
	memset(&st, 0, sizeof(st));
	st.pmu_name = pmu_name;
	st.t = t;
	st.err = err;
	st.errlen = errlen;
	int rc = encode_event(&st, e, buf, attrs, nattrs, out);
	if (rc == PMON_OK)
		out->pmu = -1;
	return rc;
}

/* The box type of a pmon name "PMU::EVENT...", or NULL. */
static const struct pmon_box_type *type_of(const char *pmon_name)
{
	char pmu[64];
	snprintf(pmu, sizeof(pmu), "%.*s", (int)strcspn(pmon_name, ":"), pmon_name);
	const struct pmon_pmu *p = pmon_catalog_pmu(pmon_catalog_find(pmu));
	return p ? p->type : NULL;
}

int pmon_encode(const char *name, int nsockets, int ncpus, pmon_encoding_t *out,
		char *err, size_t errlen)
{
	char buf[PMON_MAX_NAME * 2];
	char *attrs[MAX_ATTRS];
	int nattrs = 0;

	if (err && errlen)
		err[0] = 0;
	if (!name || !out)
		return pmon_why(err, errlen, PMON_EINVAL, "no event name");
	if (!strncasecmp(name, "pmon:::", 7))
		name += 7;
	if (!strstr(name, "::")) {
		/* perf's or Intel's name: pmon's for it (names.c) */
		pmon_name_map_t map;
		int rc = pmon_name_map(name, &map, err, errlen);
		if (rc)
			return rc;
		if (map.form != PMON_FORM_PMON) {
			size_t pl = strcspn(map.pmon[0], ":");
			int gens = 0;
			for (int i = 1; i < map.ninstances; i++)
				gens |= type_of(map.pmon[i]) != type_of(map.pmon[0]);
			if (gens)
				return pmon_why(err, errlen, PMON_EINVAL,
						"'%s' is an event of several generations' PMUs (%.*s, ...): "
						"name the PMU (%s), or encode it on a machine, which "
						"counts with its own", name, (int)pl, map.pmon[0],
						map.pmon[0]);
			if (map.ninstances > 1)
				return pmon_why(err, errlen, PMON_EINVAL,
						"'%s' names every box of its kind (%d, %s ...), counted "
						"as their sum: count it with pmon_encode_all(), PAPI or "
						"pmon stat, or name one box", name, map.ninstances,
						map.pmon[0]);
			return pmon_encode(map.pmon[0], nsockets, ncpus, out, err, errlen);
		}
	}
	if (strlen(name) >= sizeof(buf))
		return pmon_why(err, errlen, PMON_EINVAL, "event name too long");
	strcpy(buf, name);

	char *sep = strstr(buf, "::");
	if (!sep)
		return pmon_why(err, errlen, PMON_ENOEVNT,
			    "'%s' names no PMU: expected PMU::EVENT, e.g. %s",
			    name, pmon_generation_at(0)->example);
	*sep = 0;
	char *pmu_name = buf, *evname = sep + 2;
	int pmu = pmon_catalog_find(pmu_name);
	if (pmu < 0) {
		/* name the instances when only the number is wrong */
		int np;
		const struct pmon_pmu *pl = pmon_catalog(&np);
		for (int i = 0; i < np; i++) {
			size_t pl_len = strlen(pl[i].type->pmu_prefix);
			if (pl[i].type->max_boxes > 1 && !strncasecmp(pmu_name, pl[i].type->pmu_prefix, pl_len))
				return pmon_why(err, errlen, PMON_ENOEVNT,
					    "unknown box instance '%s': %s has instances 0-%d",
					    pmu_name, pl[i].type->pmu_prefix, pl[i].type->max_boxes - 1);
		}
		return pmon_why(err, errlen, PMON_ENOEVNT,
				"unknown PMU '%s' (see 'pmon list')", pmu_name);
	}
	char *colon = strchr(evname, ':');
	if (colon) {
		*colon = 0;
		char *p = colon + 1;
		for (;;) {
			if (nattrs >= MAX_ATTRS)
				return pmon_why(err, errlen, PMON_EQUAL, "too many attributes");
			attrs[nattrs++] = p;
			char *c = strchr(p, ':');
			if (!c)
				break;
			*c = 0;
			p = c + 1;
		}
	}
	if (!evname[0])
		return pmon_why(err, errlen, PMON_ENOEVNT, "no event name after '%s::'", pmu_name);
	return pmon_encode_pmu(pmu, evname, attrs, nattrs, nsockets, ncpus, out, err, errlen);
}

int pmon_encode_all(const char *name, int nsockets, int ncpus, pmon_encoding_t *out, int max,
		    char *err, size_t errlen)
{
	pmon_name_map_t *map = malloc(sizeof(*map));
	if (!map)
		return pmon_why(err, errlen, PMON_ENOMEM, "out of memory");
	int rc = pmon_name_map(name, map, err, errlen);
	if (!rc && (!out || max < map->ninstances))
		rc = pmon_why(err, errlen, PMON_EINVAL, "'%s' names %d boxes: room for %d encodings",
			      name, map->ninstances, max);
	for (int i = 0; !rc && i < map->ninstances; i++)
		rc = pmon_encode(map->pmon[i], nsockets, ncpus, &out[i], err, errlen);
	int n = map->ninstances;
	free(map);
	return rc ? rc : n;
}
