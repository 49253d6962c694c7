/*
 * encode_state.h - one encoding's state and the calls between the encoder's
 * files (not part of encode.h's interface); the phases run over that state:
 *   encode.c         the name: PMU::EVENT, its attributes, socket=/cpu=,
 *                    the canonical name, and the phases in order
 *   encode_umask.c   the umasks: which are named, their rules (groups,
 *                    exclusivity, defaults), the words they give
 *   encode_filter.c  the modifiers and the filter words: a modifier's value
 *                    into the control word or its filter field, the
 *                    fields an event needs, reserved bits, whole registers
 */
#ifndef PMON_ENCODE_STATE_H
#define PMON_ENCODE_STATE_H

#include <stddef.h>
#include <stdint.h>

#include "pmon/pmon.h"
#include "tables.h"

#define MAX_ATTRS 32

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

#pragma GCC visibility push(hidden)

/* encode_umask.c */
/* A name attribute that is not NAME=VALUE: one of the event's umasks. */
int pmon_enc_parse_umask(struct encode_state *st, const char *attr);
/* Phase 2: exclusivity inside a group, defaults, groups that must not stay empty. */
int pmon_enc_umask_rules(struct encode_state *st);
/* Phase 3: the control word and filter words the chosen umasks give. */
int pmon_enc_umask_words(struct encode_state *st);

/* encode_filter.c */
/* The field index a filter modifier targets for this event, or -1. */
int pmon_enc_mod_field(const struct pmon_box_type *t, const struct pmon_event *ev,
		       const struct pmon_modifier *m);
/* The box modifier "name" this event accepts, or -1 (*exists: one of that name is). */
int pmon_enc_find_mod(const struct pmon_box_type *t, const struct pmon_event *ev,
		      uint32_t need, const char *name, int *exists);
/* Phase 4: the modifiers, in the order named. */
int pmon_enc_apply_modifiers(struct encode_state *st);
/* Phase 5: every needed filter field has a value, and no reserved bit is set. */
int pmon_enc_check_words(const struct encode_state *st);
/* Phase 7: an event that may program a whole-register matcher owns all of it. */
void pmon_enc_own_whole_registers(struct encode_state *st);

#pragma GCC visibility pop

#endif
