/*
 * divergences.h - THE table of deliberate differences between pmon's event
 * encodings and the two independent sources they are checked against
 * (libpfm4, and Intel's event data), used by test_pfm_compare and
 * test_intel_compare.  doc/divergences.md is the same table for humans.
 *
 * A row is a promise: "this source and pmon disagree here, on purpose, for
 * this reason".  The tests fail when a difference has no row, when a row
 * says one kind of difference and another is seen, and when a row no longer
 * matches any difference (the table owner fixed it: remove the row).
 * A table error that its owner has not fixed yet is NOT a divergence.
 */
#ifndef PMON_CTESTS_DIVERGENCES_H
#define PMON_CTESTS_DIVERGENCES_H

enum div_source {
	DIV_LIBPFM4,   /* libpfm4 4.13, LIBPFM_ENCODE_INACTIVE=1, PFM_OS_NONE */
	DIV_INTEL,     /* Intel's event data (Jaketown_*.json, skylakex_core.json) */
};

/* What differs; a row's kind must be exactly what the test observes. */
enum div_kind {
	DIV_CTL          = 0x01,  /* both encode; control values differ */
	DIV_FILTER       = 0x02,  /* both encode; filter/match values differ */
	DIV_CTL_FILTER   = 0x03,  /* both of the above */
	DIV_PMON_REFUSES = 0x04,  /* the source accepts the string, pmon refuses it */
	DIV_PMON_ACCEPTS = 0x08,  /* the source refuses the string, pmon accepts it */
	DIV_NO_PMON      = 0x10,  /* Intel: the entry has no pmon counterpart */
	DIV_CODE         = 0x20,  /* Intel: event code / umask / ext-select differ */
	DIV_INTEL_FILTER = 0x40,  /* Intel: the filter fields the entry needs differ */
};

struct pmon_divergence {
	enum div_source source;
	/* libpfm4: the event string given to both encoders, "PMU::EVENT[:...]".
	 * A PMU name without its instance number ("snbep_unc_cbo") stands for
	 * every instance; '*' matches any run of characters.
	 * Intel: "Unit/EventName" ("iMC/UNC_M_CLOCKTICKS"); '*' as above. */
	const char *match;
	enum div_kind kind;
	const char *source_says;  /* what the source encodes, or that it refuses */
	const char *pmon_does;    /* what pmon encodes, or that it refuses */
	const char *why;          /* why pmon differs, with the evidence */
	/* DIV_PMON_REFUSES rows only, optional: text pmon's error message must
	 * contain, so that a row covers one reason for refusing and no other. */
	const char *pmon_error;
	/* DIV_FILTER rows only, optional: the bits in which the two filter values
	 * may differ (source XOR pmon, all words ORed, must be a non-empty subset),
	 * so that a row covers one wrong bit pattern and no other. */
	unsigned long long filt_xor;
};

extern const struct pmon_divergence pmon_divergences[];
extern const int pmon_ndivergences;

/* Intel entries of units the E5-2600 uncore guide (327043-001) does not
 * document: pmon deliberately has no counterpart.  unit alone (event NULL)
 * covers the whole unit. */
struct pmon_not_in_guide {
	const char *unit;         /* Intel's Unit, "IRP", "UBOX" */
	const char *event;        /* EventName pattern ('*' allowed) or NULL */
	const char *note;
};
extern const struct pmon_not_in_guide pmon_not_in_guide[];
extern const int pmon_nnot_in_guide;

/* Case-insensitive match with '*' wildcards. */
int div_glob(const char *pattern, const char *s);

/* The libpfm4 row that covers this event string (PMU instance numbers are
 * ignored), the observed kind, pmon's error message (pmon_error rows) and
 * filter XOR (filt_xor rows); or -1.  kind 0 (no difference) matches rows
 * by their string alone. */
int div_find_pfm(const char *evstr, int kind, const char *pmon_err, unsigned long long filt_xor);
/* The Intel row for Unit/EventName, or -1. */
int div_find_intel(const char *unit, const char *event);
/* The not-in-guide entry for this Intel entry, or -1. */
int div_find_not_in_guide(const char *unit, const char *event);

const char *div_kind_name(int kind);

#endif
