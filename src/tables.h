/*
 * tables.h - the shape of the declarative per-generation data.
 *
 * A box type (struct pmon_box_type) describes one kind of uncore PMON unit:
 * where its registers are, how wide its counters are, which control bits
 * exist, which filter registers it owns and how they split into fields, which
 * modifiers it accepts, and its event table.  A generic engine (encode.c,
 * assign.c, session.c, regs.c) reads only these tables; nothing in it knows a
 * box by name.
 *
 * Events and umasks are data.  Counter constraints (cntmask) and the filter
 * fields an event or umask depends on are kept with them, because the
 * scheduler needs them to place events and to refuse conflicting ones.
 */
#ifndef PMON_TABLES_H
#define PMON_TABLES_H

#include <stdint.h>

/* ---- control-register bits common to the SNB-EP PMON boxes ---- */
#define PMON_CTL_EV_SEL_SHIFT   0        /* 7:0 */
#define PMON_CTL_UMASK_SHIFT    8        /* 15:8 */
#define PMON_CTL_RST            (1u << 17)
#define PMON_CTL_EDGE           (1u << 18)
#define PMON_CTL_TID_EN         (1u << 19)   /* CBo only */
#define PMON_CTL_EV_SEL_EXT     (1u << 21)   /* QPI and PCU "extra select bit" */
#define PMON_CTL_EN             (1u << 22)
#define PMON_CTL_INVERT         (1u << 23)
#define PMON_CTL_THRESH_SHIFT   24
#define PMON_PCU_OCC_SEL_SHIFT  14           /* 15:14 */
#define PMON_PCU_OCC_INVERT     (1u << 30)
#define PMON_PCU_OCC_EDGE       (1u << 31)

/* ---- core PMU (IA32_PERFEVTSELx) bits ---- */
#define PMON_CORE_USR           (1u << 16)
#define PMON_CORE_OS            (1u << 17)

/* ---- box-control bits ---- */
#define PMON_BOX_RST_CTRL       (1u << 0)
#define PMON_BOX_RST_CTRS       (1u << 1)
#define PMON_BOX_FRZ            (1u << 8)
#define PMON_BOX_FRZ_EN         (1u << 16)

/* The low width bits set (a field's or a counter's mask); width 64: all. */
static inline uint64_t pmon_bits(unsigned width)
{
	return width >= 64 ? ~0ull : (1ull << width) - 1;
}

enum pmon_space { PMON_SPACE_MSR = 0, PMON_SPACE_PCI = 1, PMON_SPACE_CORE = 2 };

/* A filter/match register owned by a box.  Its value is filt[word] of the
 * encoding (see pmon.h); for PCI registers that hold 64 bits as two dwords,
 * lo_off/hi_off name them (hi_off 0 = 32-bit register). */
struct pmon_filter_reg {
	const char *name;        /* "Cn_MSR_PMON_BOX_FILTER" */
	uint8_t word;            /* index into pmon_encoding.filt[] */
	uint32_t msr;            /* MSR boxes: address for instance 0 (plus box stride) */
	uint16_t lo_off, hi_off; /* PCI boxes: config offsets */
	uint8_t extra_dev;       /* PCI: 1 = lives in the box's extra function (QPI F6) */
	uint8_t whole;           /* 1 = one setting for the whole register: events that use
				    any field of it must agree on every bit (QPI match/mask,
				    HA matchers), not just on the fields they name */
	uint64_t valid;          /* bits that may be non-zero */
};

/* A named slice of a filter word, the unit of sharing between events.  Two
 * events on one box instance that both use a field must agree on its bits. */
struct pmon_filter_field {
	const char *name;        /* "tid", "nid", "state", "opc", "band0", ... */
	uint8_t word;            /* filt[] index */
	uint8_t shift;
	uint8_t width;
};

/*
 * How the encoder combines these tables (encode.c implements exactly this):
 *  - ctl = code | ext<<21 | umask<<8 | modifier bits; for PMON_EV_OCC events
 *    the umask value goes to occ_sel (bits 15:14) instead of bits 15:8.
 *    A chosen umask's ctl_set bits are ORed in too; a PMON_MOD_CTL modifier
 *    that would change one of them is an error.
 *  - Umasks of one group OR together; a PMON_UM_EXCL umask must be alone in its
 *    group.  A group with no umask named takes its PMON_UM_DEFAULT umasks (if
 *    any).  A PMON_EV_NEED_UM event with no umask left in group 0 is an error.
 *  - filt[w] |= umask.filt_set[w] for every chosen umask.  The filter fields
 *    an event needs are event.fields | the chosen umasks' .fields; each needed
 *    field must receive a value, from a umask's filt_set or from a modifier.
 *  - A PMON_MOD_CTL modifier is accepted when event.mods has its bit (bit i =
 *    the box's mods[i]).  A PMON_MOD_FILTER or PMON_MOD_ADDR modifier is
 *    accepted when event.mods has its bit OR its field is needed; anything
 *    else is an error naming the modifier and the event.
 *  - Every value is range-checked against min/max and the field width.
 *  - Fixed-counter events (PMON_EV_FIXED) take no umask or modifier; their
 *    ctl is 0 (the fixed control register has only the enable bit).
 */

/* A PMON_MOD_FILTER modifier whose field is this applies to the one filter
 * field the event itself declares in .fields (PCU "ff" for FREQ_BANDn). */
#define PMON_FIELD_EVENT 0xff

/* Modifiers: ":name=value" attached to an event. */
enum pmon_mod_kind {
	PMON_MOD_CTL,            /* value goes into control-register bits shift..shift+width-1 */
	PMON_MOD_FILTER,         /* value goes into a filter field (index in .field) */
	PMON_MOD_ADDR,           /* HA physical-address match (special layout) */
};
struct pmon_modifier {
	const char *name;        /* libpfm4 spelling where one exists: e i t tf cf nf ff ... */
	const char *desc;
	enum pmon_mod_kind kind;
	/* PMON_MOD_CTL: control bits shift..shift+width-1.  PMON_MOD_FILTER: the
	 * value lands at bit (field.shift + shift) of filter word field.word, and
	 * is width bits wide (width 0 = the whole field), so two modifiers can
	 * share one field (CBo tf and cf both live in the tid field).
	 * PMON_MOD_ADDR: the value is a physical address, written in place into
	 * the field (field.shift..field.shift+field.width-1; HA: PA[45:6] ->
	 * filt[0] = ADDRMATCH1:ADDRMATCH0).  shift is the lowest address bit the
	 * hardware compares (HA: 12, 4 KiB pages): an address with a bit below
	 * it, or above the field, is refused, since the hardware would match
	 * something other than what was asked. */
	uint8_t shift, width;
	uint8_t field;           /* PMON_MOD_FILTER: index into the box's fields */
	uint64_t min, max;
	uint32_t ctl_also;       /* extra control bits set when used (e.g. tid_en for tf) */
};

/* Umask flags */
#define PMON_UM_DEFAULT   0x1    /* applied when the event is named with no umask of its group */
#define PMON_UM_EXCL      0x2    /* may not be combined with another umask of its group */
#define PMON_UM_SELF      0x4    /* the filter bits it writes serve itself: it needs no other
				    umask or event field to read them (Nehalem's MSR 0x301
				    transition and MSR 0x396 match-select umasks) */

struct pmon_umask {
	const char *name;        /* "RD" */
	uint64_t value;          /* umask bits [15:8] (PCU: occ_sel value; offcore: RSP MSR bits) */
	uint32_t flags;
	uint8_t grp;             /* umask group: umasks of different groups combine */
	uint32_t fields;         /* filter fields (bit i = box field i) this umask requires */
	uint64_t filt_set[2];    /* bits it sets in filt[0]/filt[1] (e.g. CBo state, opcode) */
	const char *desc;
	/* Control bits the umask sets besides its value (Nehalem's
	 * UNC_GQ_TRACKER_OCCUP _FULL and _BUSY forms carry a counter mask);
	 * a modifier may not change them.  0 for every SNB-EP umask. */
	uint32_t ctl_set;
};

/* Event flags */
#define PMON_EV_FIXED     0x01   /* counts on the box's fixed counter only */
#define PMON_EV_OCC       0x02   /* PCU occupancy event: umask is occ_sel, ev_sel bit 7 set */
#define PMON_EV_NEED_UM   0x04   /* at least one umask must be given (no default) */
#define PMON_EV_OFFCORE   0x08   /* core PMU offcore response: umask values are the
				    RSP MSR bits and go to the filter word of the
				    event's field (rsp0 / rsp1); ctl umask is 0x01 */

struct pmon_event {
	const char *name;        /* "UNC_M_CAS_COUNT" */
	uint8_t code;            /* ev_sel */
	uint8_t ext;             /* 1 = needs the extra select bit (bit 21) */
	uint8_t flags;
	uint32_t cntmask;        /* allowed general counters */
	uint32_t fields;         /* filter fields needed regardless of umask */
	uint32_t mods;           /* bit i = box modifier i accepted by this event */
	uint8_t need_grps;       /* bit g: umask group g must be non-empty after defaults
				    (PMON_EV_NEED_UM is the same as bit 0) */
	const struct pmon_umask *umasks;
	uint16_t numasks;
	const char *desc;
};

struct pmon_pci_fn {
	uint8_t dev, func;
	uint16_t devid;          /* vendor is always 0x8086 */
};

/* An event of the vendor's lists that pmon deliberately does not offer.
 * The encoder refuses its name with the reason instead of "unknown event";
 * doc/divergences.md has the evidence (ctests/divergences.c, the same rows). */
struct pmon_excluded_event {
	const char *name;          /* "UNC_U_FILTER_MATCH" */
	const char *why;           /* one clause: why pmon has no such event */
};

/* A spelling of the vendor's guide where the catalogue keeps libpfm4's
 * (users know both): with umask NULL, name is another name of event
 * `event`; else name is another name of umask `umask` of event `event`.
 * The encoder accepts it and names the encoding canonically. */
struct pmon_alias {
	const char *name;          /* "UNC_IMC_NORMAL_READS", or a umask's "RT" */
	const char *event;         /* the catalogue's event: "UNC_QMC_NORMAL_READS" */
	const char *umask;         /* NULL, or the catalogue's umask: "READ_TRACKER" */
};

/* Box type quirks (pmon_box_type.quirks). */
#define PMON_BOX_PER_CORE  0x1    /* one instance per core of the socket, up to max_boxes
				     (SNB-EP's CBo: one per LLC slice) */

struct pmon_box_type {
	const char *name;          /* "imc" */
	const char *pmu_prefix;    /* "snbep_unc_imc"; the instance number is appended
				      when max_boxes > 1 (libpfm4's naming) */
	const char *perf_name;     /* "uncore_imc" (Linux perf PMU name, for reference) */
	const char *desc;
	enum pmon_space space;
	uint8_t max_boxes;         /* instances per socket (PMON_BOX_PER_CORE: at most) */
	uint8_t ncounters;
	uint8_t width;             /* general counter width */
	uint8_t thresh_bits;       /* 8, or 5 (UBox, PCU) */
	uint32_t ctl_valid;        /* control bits software may set (enable excluded) */
	uint8_t has_box_ctl;       /* UBox has none */
	uint8_t has_rst_ctrs;      /* box ctl rst_ctrs usable (not HA/iMC) */
	uint32_t quirks;           /* PMON_BOX_*: what the engine must know of the box type
				      besides its registers (never its name) */

	/* MSR boxes */
	uint32_t msr_box_ctl, msr_ctl0, msr_ctr0;
	uint32_t msr_stride;       /* between instances (CBo 0x20) */

	/* PCI boxes: one function per instance, optional extra function per instance */
	struct pmon_pci_fn pci[4];
	struct pmon_pci_fn pci_extra[4];
	uint16_t pci_box_ctl, pci_ctl0, pci_ctr0;   /* ctl stride 4, ctr stride 8 (lo, hi dwords) */

	/* fixed counter */
	uint8_t has_fixed, fixed_width;
	uint32_t fixed_ctl, fixed_ctr;       /* MSR numbers or PCI offsets (ctr: lo dword) */
	uint32_t fixed_en, fixed_rst;        /* bits in the fixed control */

	const struct pmon_filter_reg *fregs;
	uint8_t nfregs;
	const struct pmon_filter_field *fields;
	uint8_t nfields;
	const struct pmon_modifier *mods;
	uint8_t nmods;
	const struct pmon_event *events;   /* ends with an entry whose name is NULL */
	/* events not offered on purpose, or NULL; ends with a NULL name */
	const struct pmon_excluded_event *excluded;
	/* other spellings of events and umasks, or NULL; ends with a NULL name */
	const struct pmon_alias *aliases;

	/* Core PMU box types only: the CPU models (family 6) this PMU is native
	 * to, 0-terminated.  Other generations' tables encode but do not count. */
	uint8_t core_models[8];
	/* Core PMU box types only: 1 when the offcore MSRs are one register per
	 * physical core, shared by its hyperthreads (Nehalem, Westmere); 0 when
	 * each logical CPU has its own (Sandy Bridge and later with HT on). */
	uint8_t rsp_per_core;

	/* PMUs whose counters one global control enables (REG_GLOBAL_CTL):
	 * the Nehalem/Westmere uncore (0x391, no box control) and the core PMU
	 * (IA32_PERF_GLOBAL_CTRL 0x38f).  The MSRs of the global enable, of
	 * the overflow status and of the overflow clear (0: pmon leaves the
	 * overflows alone), and the fixed counters' bits in all three (general
	 * counter i is bit i).  The engine enables a session's counters there
	 * after taking their starting values, clears those bits after the
	 * stop's final read, and puts back every bit it changed.  msr_glb_ctl
	 * 0 = none. */
	uint32_t msr_glb_ctl, msr_glb_status, msr_glb_ovf;
	uint64_t glb_fixed_bit;
};

/* The control word of an event whose chosen umasks OR to umask, before
 * modifiers and without the enable bit (the first rule above): ev_sel, the
 * extra select bit, the umask in bits 15:8 (PCU occupancy events:
 * occ_sel); offcore-response events 0x01 with USR and OS (their umask
 * values are response bits); fixed-counter events 0. */
static inline uint64_t pmon_event_ctl(const struct pmon_event *ev, uint64_t umask)
{
	if (ev->flags & PMON_EV_FIXED)
		return 0;
	if (ev->flags & PMON_EV_OFFCORE)
		return ev->code | (1u << PMON_CTL_UMASK_SHIFT) | PMON_CORE_USR | PMON_CORE_OS;
	return ev->code | (ev->ext ? PMON_CTL_EV_SEL_EXT : 0) |
	       umask << ((ev->flags & PMON_EV_OCC) ? PMON_PCU_OCC_SEL_SHIFT : PMON_CTL_UMASK_SHIFT);
}

/* The filter fields a umask writes itself (bit f: t->fields[f]), as an
 * OPC_ opcode or a line state does. */
static inline uint32_t pmon_umask_writes(const struct pmon_box_type *t, const struct pmon_umask *um)
{
	uint32_t w = 0;
	for (int f = 0; f < t->nfields; f++) {
		const struct pmon_filter_field *fd = &t->fields[f];
		if (fd->word < 2 && (um->filt_set[fd->word] & (pmon_bits(fd->width) << fd->shift)))
			w |= 1u << f;
	}
	return w;
}

#define PMON_ARRAY_SIZE(a) ((int)(sizeof(a) / sizeof((a)[0])))

#endif
