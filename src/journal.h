/*
 * journal.h - the original values of the registers pmon is about to change,
 * kept on disk so that `pmon reset` can put them back after a crash.
 *
 * One small text file per socket in the run directory (boxlock.h):
 *     DIR/socket0.journal
 * one line per register:
 *     owner=4242:881234 box=snbep_unc_pcu cpu=-1 reg=filter idx=0 value=0x0 wrote=0x4000
 *     mask=0xffffffffffffffff sum=8c1d02f3          (one line in the file)
 * owner: the process that journaled it, as its pid and its start time
 * (field 22 of /proc/PID/stat), so that a pid reused by another process is
 * not taken for the owner; box: the PMU, or "prefetch" for MSR 0x1A4 of a
 * CPU (platform.h; reg=ctl idx=0 mask=0xf); cpu: the CPU of a core-PMU
 * box or of MSR 0x1A4, -1 for uncore
 * boxes; value: the register's original value; wrote: what pmon wrote in it
 * ("-" until the start that journaled it has written it); mask: the bits
 * of the register that are pmon's, all ones but for a global control
 * (reg=global_ctrl: the session's enable bits) and a global overflow
 * status (reg=global_ovf, the Nehalem uncore's 0x392/0x393: value the
 * session's overflow bits set before it started; `pmon reset` clears the
 * others of mask through the overflow control).
 * A mask of 0 marks a register another agent took over while pmon counted
 * (found changed from what pmon wrote; value: what was found): no bit of it
 * is pmon's, so neither the stop nor `pmon reset` writes it, and the line
 * stays until a session of pmon journals that register again.  sum: the
 * FNV-1a hash (32 bits) of the line's text before " sum=": a line whose sum
 * does not match is not an entry (`pmon reset` names it and drops it).
 *
 * Every change rewrites the file whole, through a temporary file
 * (DIR/socketN.journal.tmpPID.SEQ, created 0600 with O_CREAT|O_EXCL|
 * O_NOFOLLOW) renamed over it, so a reader sees the old or the new journal,
 * never a torn one; changes of several processes are serialized by a lock
 * on DIR/socketN.journal.lock (kept open by the process; a mutex orders its
 * threads).  The temporaries a killed process left are removed at each
 * process's first change of the journal.  The journal is not fsync'ed: it
 * must outlive the process that wrote it (kill -9: the page cache has it
 * once write() returned), not a power loss or a kernel crash, after which
 * the registers hold their power-on values again.  The entries a process
 * last read or wrote are kept in it while the file stays the same inode,
 * size and modification time (pmon only ever renames a new file over it),
 * so a rewrite reads and parses nothing.  The file is opened as safefile.h
 * says (O_NOFOLLOW; a file of the effective user, one link, mode 0600): one
 * of another user, or one others may write, is not read.  A box's lines are
 * added before its first register is
 * written and dropped by their owner when it has restored the box (but for
 * the lines of mask 0); the file is removed when it holds no line.  Lines of
 * a dead owner make a start on their box fail, naming `pmon reset`.
 */
#ifndef PMON_JOURNAL_H
#define PMON_JOURNAL_H

#include <stddef.h>
#include <stdint.h>

#include "regs.h"

/* A process, as pid and start time (clock ticks after boot). */
struct pmon_owner {
	long pid;
	unsigned long long start;
};

struct pmon_journal_entry {
	struct pmon_owner owner;
	char box[48];             /* PMU name: "snbep_unc_pcu" */
	int cpu;                  /* core PMU: its CPU; -1 for uncore boxes */
	enum pmon_reg_kind kind;
	int idx;
	uint64_t value, mask;
	uint64_t wrote;           /* valid when has_wrote */
	int has_wrote;
};

/* This process (its start time read once). */
const struct pmon_owner *pmon_owner_self(void);
/* Is that process still running (and not a zombie)?  A process whose
 * /proc entry cannot be read for another reason than its absence counts
 * as alive. */
int pmon_owner_alive(const struct pmon_owner *o);

/* Add the entries (owner: this process) not yet in the socket's journal
 * (same box, cpu, kind and idx: the first value stays, it is the oldest,
 * unless its mask is 0: then the new entry replaces it; a global control's
 * or overflow line of this process gains the new entry's bits, value and
 * mask, as another of its sessions shares the register; pmon_journal_wrote
 * then adds what it wrote there to the others').  PMON_EBUSY,
 * adding nothing, when a box of e[] has lines of an owner that died (naming
 * the journal, the box and the owner, and `pmon reset`); PMON_EIO for a
 * journal with a line that is not an entry.  PMON_OK or an error with why. */
int pmon_journal_add(const char *dir, int socket, const struct pmon_journal_entry *e, int n,
		     char *why, size_t len);
/* Record what this process wrote (e[i].wrote) in its lines of these
 * registers. */
int pmon_journal_wrote(const char *dir, int socket, const struct pmon_journal_entry *e, int n,
		       char *why, size_t len);
/* Mark these registers as another agent's: their entries (added if
 * missing) get mask 0 and the value found in them.  For a global control
 * or overflow line, e[i].mask holds the session's bits the agent took:
 * only those leave this process's line (its other sessions' bits stay
 * pmon's); the line gets mask 0 once no bit is left, but an overflow
 * line (nothing of it to keep for the agent) is removed then. */
int pmon_journal_disown(const char *dir, int socket, const struct pmon_journal_entry *e, int n,
			char *why, size_t len);
/* Before one register outside the boxes is written (MSR 0x1A4, the
 * prefetchers: box PMON_JOURNAL_PREFETCH): its line, e (e->value its
 * value now, e->wrote what is about to be written), is added, or, when the
 * register has a line already, that line's original value stays and it
 * gets e->wrote and this process as owner.  *orig: the line's original
 * value. */
int pmon_journal_intent(const char *dir, int socket, const struct pmon_journal_entry *e,
			uint64_t *orig, char *why, size_t len);
#define PMON_JOURNAL_PREFETCH "prefetch"

/* Drop this process's entries of the box (pmu name, cpu) but those of mask 0. */
int pmon_journal_drop(const char *dir, int socket, const char *box, int cpu, char *why, size_t len);
/* The same for each box b[i] (its box and cpu; the other fields unused),
 * in one rewrite of the journal. */
int pmon_journal_drop_boxes(const char *dir, int socket, const struct pmon_journal_entry *b, int nb,
			    char *why, size_t len);
/* The socket's entries whose lines parse and whose sum matches (*e
 * malloc'ed, free it); the other lines are named in bad (badlen bytes, ""
 * when none).  *n = 0 and PMON_OK when there is no journal. */
int pmon_journal_load(const char *dir, int socket, struct pmon_journal_entry **e, int *n,
		      char *bad, size_t badlen, char *why, size_t len);
/* Replace the socket's journal by e[0..n) (none: remove it). */
int pmon_journal_replace(const char *dir, int socket, const struct pmon_journal_entry *e, int n,
			 char *why, size_t len);

/* One line of a journal (with or without its newline) into *e: 0, or -1
 * with why saying what is wrong with it (a sum that does not match, a
 * field missing or out of its syntax, text after the sum). */
int pmon_journal_parse(const char *line, struct pmon_journal_entry *e, char *why, size_t len);
/* The line of e, newline and sum included, into buf: its length, or -1
 * when it does not fit. */
int pmon_journal_format(const struct pmon_journal_entry *e, char *buf, size_t len);

const char *pmon_reg_kind_name(enum pmon_reg_kind k);

#endif
