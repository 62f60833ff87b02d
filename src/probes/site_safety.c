// SPDX-License-Identifier: MIT
/* site_safety: a probe site's encoding, red-zone use and optimizability; see site_safety.h. */
#include "probes/site_safety.h"

#include <capstone/capstone.h>
#include <cjson/cJSON.h>
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "core/util.h"

/* ---- the encoding at the site ---- */

const char *pcost_site_encoding_name(enum pcost_site_encoding e)
{
	static const char *const names[] = { "other", "nop", "nop5", "nop10" };

	return (unsigned)e < ARRAY_SIZE(names) ? names[e] : "other";
}

static csh disassembler(void)
{
	csh h;

	if (cs_open(CS_ARCH_X86, CS_MODE_64, &h) != CS_ERR_OK)
		return 0;
	cs_option(h, CS_OPT_DETAIL, CS_OPT_ON);
	return h;
}

/* A nop as the kernel's decoder sees one: opcode 90, or 0f 1f /0 (NOPL). */
static bool is_nop(const cs_insn *in)
{
	const cs_x86 *x = &in->detail->x86;

	if (in->id != X86_INS_NOP)
		return false;
	if (x->opcode[0] == 0x90)
		return true;
	return x->opcode[0] == 0x0f && x->opcode[1] == 0x1f && ((x->modrm >> 3) & 7) == 0;
}

static enum pcost_site_encoding classify(csh h, const uint8_t *code, size_t len)
{
	enum pcost_site_encoding e = PCOST_SITE_OTHER;
	cs_insn *in;

	if (h && cs_disasm(h, code, len < 15 ? len : 15, 0, 1, &in) == 1) {
		if (is_nop(in))
			e = in->size == 1    ? PCOST_SITE_NOP
			    : in->size == 5  ? PCOST_SITE_NOP5
			    : in->size == 10 ? PCOST_SITE_NOP10
					     : PCOST_SITE_OTHER;
		cs_free(in, 1);
	}
	return e;
}

enum pcost_site_encoding pcost_site_encoding_of(const uint8_t *code, size_t len)
{
	csh h = disassembler();
	enum pcost_site_encoding e = classify(h, code, len);

	if (h)
		cs_close(&h);
	return e;
}

/* ---- does this kernel optimize nop5 uprobes? ---- */

/*
 * Linux 6.18 optimizes a uprobe on a 5-byte nop into a CALL to
 * [uprobes-trampoline], whose code enters the kernel through the uprobe
 * syscall (x86-64 number 336).  The syscall refuses a caller outside a
 * trampoline with ENXIO (the feature check proposed for libbpf).  A kernel
 * without it answers ENOSYS.  Anything else (seccomp's EPERM, a later kernel
 * that answers differently and may optimize other encodings) is "cannot tell".
 */
#define NR_UPROBE_X86_64 336

/*
 * Does this kernel optimize a uprobe on a nop5 site into a CALL?  1, 0, or
 * -1 when it cannot tell.  Decided once, from the uprobe syscall.
 */
static int kernel_optimizes_nop5(void)
{
	static int known = -2;

	if (known != -2)
		return known;
#if defined(__x86_64__)
	errno = 0;
	if (syscall(NR_UPROBE_X86_64) == -1 && errno == ENXIO)
		known = 1;
	else
		known = errno == ENOSYS ? 0 : -1;
#else
	known = 0; /* the uprobe trampoline is x86-64 only */
#endif
	return known;
}

/* ---- the stack pointer and the red zone ---- */

enum flow { F_NEXT, F_STOP, F_JMP, F_JCC, F_IJMP };
enum sp_effect { SP_SAME, SP_ADD, SP_FROM_BP, SP_LOST };
enum bp_effect { BP_SAME, BP_FROM_SP, BP_LOST };
enum base { B_SP = 1, B_BP = 2 };

struct access {
	uint8_t base; /* B_SP or B_BP */
	bool indexed; /* base + index * scale + disp: a range from disp upwards */
	uint8_t rw;   /* CS_AC_READ | CS_AC_WRITE */
	uint8_t size;
	int64_t disp;
};

struct ins {
	uint64_t addr;
	uint16_t size;
	uint8_t flow;
	bool call, noret; /* a call; one that does not return (see follow_stack) */
	bool via_ijmp;	  /* reached by no direct edge: an indirect jump's target (follow_stack) */
	uint64_t taddr;	  /* a direct branch's target address */
	int target;	  /* its instruction index, -1: outside the function (a tail call) */
	uint8_t sp, bp;	  /* enum sp_effect, enum bp_effect */
	int64_t sp_arg, bp_arg;
	uint8_t nmem;
	struct access mem[2];
};

/*
 * rbp: not a pointer into our frame (the caller's frame pointer, or any other
 * value: accesses through it are not stack accesses), one at a known offset,
 * or one at an offset not known.
 */
enum bp_state { BPS_OTHER, BPS_KNOWN, BPS_UNKNOWN };

/* What is known at an instruction's start: rsp and rbp relative to rsp at the entry. */
struct state {
	bool reached, sp_ok;
	uint8_t bpk; /* enum bp_state */
	int64_t sp, bp;
	int by_call; /* reached only as the instruction after this call so far, else -1 */
};

struct fn {
	struct ins *ins;
	size_t n;
	struct state *st;
	int lost_at; /* first instruction changing rsp in a way not followed, -1 */
	/* The graph: successors of each instruction, predecessors (an indirect jump's: below). */
	int (*succ)[2];
	uint8_t *nsucc;
	size_t *pred_at; /* predecessors of i: pred[pred_at[i] .. pred_at[i + 1]) */
	int *pred;
	int *ijmp; /* the indirect jumps, predecessors of every via_ijmp instruction */
	size_t nijmp;
};

static bool is_reg(const cs_x86_op *o, x86_reg r)
{
	return o->type == X86_OP_REG && o->reg == r;
}

/*
 * The effect of in on rsp and rbp.  Whatever else writes rsp loses it; whatever
 * else writes rbp makes it something other than a pointer into the frame.
 */
static void stack_effect(csh h, const cs_insn *in, struct ins *d)
{
	const cs_x86 *x = &in->detail->x86;
	const cs_x86_op *o = x->operands;
	cs_regs rr, rw;
	uint8_t nr = 0, nw = 0;
	bool w_sp = false, w_bp = false;

	if (cs_regs_access(h, in, rr, &nr, rw, &nw) == CS_ERR_OK)
		for (uint8_t i = 0; i < nw; i++) {
			w_sp |= rw[i] == X86_REG_RSP || rw[i] == X86_REG_ESP || rw[i] == X86_REG_SP;
			w_bp |= rw[i] == X86_REG_RBP || rw[i] == X86_REG_EBP || rw[i] == X86_REG_BP;
		}
	switch (in->id) {
	case X86_INS_PUSH:
	case X86_INS_PUSHFQ:
		d->sp = SP_ADD;
		d->sp_arg = -(x->op_count && o[0].size ? o[0].size : 8);
		return;
	case X86_INS_POP:
	case X86_INS_POPFQ:
		d->sp = x->op_count && is_reg(&o[0], X86_REG_RSP) ? SP_LOST : SP_ADD;
		d->sp_arg = x->op_count && o[0].size ? o[0].size : 8;
		d->bp = x->op_count && is_reg(&o[0], X86_REG_RBP) ? BP_LOST : BP_SAME;
		return;
	case X86_INS_CALL: /* rsp is back where it was once the callee returns */
		d->bp = BP_SAME;
		return;
	case X86_INS_RET:
	case X86_INS_RETF:
	case X86_INS_RETFQ:
		return;
	case X86_INS_LEAVE: /* mov %rbp,%rsp; pop %rbp */
		d->sp = SP_FROM_BP;
		d->sp_arg = 8;
		d->bp = BP_LOST;
		return;
	default:
		break;
	}
	if (x->op_count == 2 && is_reg(&o[0], X86_REG_RSP)) {
		if ((in->id == X86_INS_SUB || in->id == X86_INS_ADD) && o[1].type == X86_OP_IMM) {
			d->sp = SP_ADD;
			d->sp_arg = in->id == X86_INS_SUB ? -o[1].imm : o[1].imm;
			return;
		}
		if (in->id == X86_INS_LEA && o[1].mem.index == X86_REG_INVALID &&
		    (o[1].mem.base == X86_REG_RSP || o[1].mem.base == X86_REG_RBP)) {
			d->sp = o[1].mem.base == X86_REG_RSP ? SP_ADD : SP_FROM_BP;
			d->sp_arg = o[1].mem.disp;
			return;
		}
		if (in->id == X86_INS_MOV && is_reg(&o[1], X86_REG_RBP)) {
			d->sp = SP_FROM_BP;
			return;
		}
	}
	if (x->op_count == 2 && is_reg(&o[0], X86_REG_RBP)) {
		if (in->id == X86_INS_MOV && is_reg(&o[1], X86_REG_RSP)) {
			d->bp = BP_FROM_SP;
			return;
		}
		if (in->id == X86_INS_LEA && o[1].mem.base == X86_REG_RSP &&
		    o[1].mem.index == X86_REG_INVALID) {
			d->bp = BP_FROM_SP;
			d->bp_arg = o[1].mem.disp;
			return;
		}
	}
	if (w_sp)
		d->sp = SP_LOST;
	if (w_bp)
		d->bp = BP_LOST;
}

/* Memory operands addressed from rsp or rbp (lea and nops touch no memory). */
static void accesses(const cs_insn *in, struct ins *d)
{
	const cs_x86 *x = &in->detail->x86;

	if (in->id == X86_INS_LEA || in->id == X86_INS_NOP)
		return;
	for (uint8_t i = 0; i < x->op_count && d->nmem < ARRAY_SIZE(d->mem); i++) {
		const cs_x86_op *o = &x->operands[i];
		struct access *a = &d->mem[d->nmem];

		if (o->type != X86_OP_MEM || o->mem.segment != X86_REG_INVALID)
			continue;
		if (o->mem.base == X86_REG_RSP)
			a->base = B_SP;
		else if (o->mem.base == X86_REG_RBP)
			a->base = B_BP;
		else
			continue;
		a->indexed = o->mem.index != X86_REG_INVALID;
		a->disp = o->mem.disp;
		a->size = o->size ? o->size : 8;
		/* Capstone 4 leaves some operands' access unset: take both. */
		a->rw = o->access ? o->access : CS_AC_READ | CS_AC_WRITE;
		d->nmem++;
	}
}

static void control_flow(csh h, const cs_insn *in, struct ins *d)
{
	const cs_x86 *x = &in->detail->x86;

	d->flow = F_NEXT;
	d->target = -1;
	d->call = cs_insn_group(h, in, X86_GRP_CALL);
	if (cs_insn_group(h, in, X86_GRP_RET) || in->id == X86_INS_UD2 || in->id == X86_INS_HLT ||
	    in->id == X86_INS_INT3)
		d->flow = F_STOP;
	else if (cs_insn_group(h, in, X86_GRP_JUMP)) {
		bool direct = x->op_count == 1 && x->operands[0].type == X86_OP_IMM;

		d->flow = in->id != X86_INS_JMP ? F_JCC : direct ? F_JMP : F_IJMP;
		if (direct)
			d->taddr = (uint64_t)x->operands[0].imm;
	}
}

static int find_ins(const struct fn *f, uint64_t addr)
{
	size_t lo = 0, hi = f->n;

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;

		if (f->ins[mid].addr < addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < f->n && f->ins[lo].addr == addr ? (int)lo : -1;
}

/* Decode the function; 0, or -1 when Capstone cannot. */
static int decode(csh h, const uint8_t *code, size_t len, uint64_t base, struct fn *f)
{
	cs_insn *all;
	size_t n = cs_disasm(h, code, len, base, 0, &all);

	if (!n)
		return -1;
	f->ins = xcalloc(n, sizeof(*f->ins));
	f->n = n;
	for (size_t i = 0; i < n; i++) {
		struct ins *d = &f->ins[i];

		d->addr = all[i].address;
		d->size = all[i].size;
		control_flow(h, &all[i], d);
		stack_effect(h, &all[i], d);
		accesses(&all[i], d);
	}
	cs_free(all, n);
	f->lost_at = -1;
	for (size_t i = 0; i < n; i++) {
		struct ins *d = &f->ins[i];

		/* A conditional jump without an immediate target (jrcxz, loop): as a jump anywhere.
		 */
		d->target = d->taddr ? find_ins(f, d->taddr) : -1;
		if (d->flow == F_JCC && !d->taddr)
			d->flow = F_IJMP;
		if (d->sp == SP_LOST && f->lost_at < 0)
			f->lost_at = (int)i;
	}
	return 0;
}

/* The instructions control may go to from i: *all when an indirect jump may go anywhere. */
static size_t successors(const struct fn *f, size_t i, int out[2], bool *all)
{
	const struct ins *d = &f->ins[i];
	size_t n = 0;
	bool next = i + 1 < f->n && f->ins[i + 1].addr == d->addr + d->size;

	*all = d->flow == F_IJMP;
	if ((d->flow == F_NEXT || d->flow == F_JCC) && next && !d->noret)
		out[n++] = (int)i + 1;
	if ((d->flow == F_JMP || d->flow == F_JCC) && d->target >= 0)
		out[n++] = d->target;
	return n;
}

static struct state transfer(const struct ins *d, struct state in)
{
	struct state out = in;

	switch (d->sp) {
	case SP_ADD:
		out.sp = in.sp + d->sp_arg;
		break;
	case SP_FROM_BP:
		out.sp_ok = in.bpk == BPS_KNOWN;
		out.sp = in.bp + d->sp_arg;
		break;
	case SP_LOST:
		out.sp_ok = false;
		break;
	}
	if (d->bp == BP_FROM_SP) {
		out.bpk = in.sp_ok ? BPS_KNOWN : BPS_UNKNOWN;
		out.bp = in.sp + d->bp_arg;
	} else if (d->bp == BP_LOST) {
		out.bpk = BPS_OTHER;
	}
	return out;
}

static bool differ(const struct state *a, const struct state *b)
{
	return a->sp_ok != b->sp_ok || (a->sp_ok && a->sp != b->sp) || a->bpk != b->bpk ||
	       (a->bpk == BPS_KNOWN && a->bp != b->bp);
}

/*
 * Merge s, coming from instruction `from` (call: the edge is the fall-through
 * of a call), into f->st[i]; true when it changed (values only ever become
 * unknown).  A call's fall-through that disagrees with another path into i is
 * taken for a call that does not return (abort, __stack_chk_fail, ASan's
 * reports): *noret gets the call, and the caller starts over without it.
 */
static bool merge(struct fn *f, size_t i, struct state s, int call, int *noret)
{
	struct state *d = &f->st[i];
	bool changed = false;

	s.by_call = call;
	if (!d->reached) {
		*d = s;
		d->reached = true;
		return true;
	}
	if (!differ(d, &s)) {
		if (call < 0)
			d->by_call = -1;
		return false;
	}
	if ((call >= 0) != (d->by_call >= 0)) {
		*noret = call >= 0 ? call : d->by_call;
		return false;
	}
	if (d->sp_ok && (!s.sp_ok || s.sp != d->sp)) {
		d->sp_ok = false;
		changed = true;
	}
	if (d->bpk != BPS_UNKNOWN && (s.bpk != d->bpk || (d->bpk == BPS_KNOWN && s.bp != d->bp))) {
		d->bpk = BPS_UNKNOWN;
		changed = true;
	}
	return changed;
}

/* One pass from rsp = 0 at the entry; -1, or a call found not to return (merge). */
static int stack_pass(struct fn *f, size_t *work, bool *queued)
{
	size_t nw = 0;
	int noret = -1;

	memset(f->st, 0, f->n * sizeof(*f->st));
	memset(queued, 0, f->n * sizeof(*queued));
	merge(f, 0, (struct state){ .sp_ok = true }, -1, &noret);
	work[nw++] = 0;
	queued[0] = true;
	while (nw && noret < 0) {
		size_t i = work[--nw];
		struct state out = transfer(&f->ins[i], f->st[i]);
		int succ[2];
		bool all;
		size_t ns = successors(f, i, succ, &all);

		queued[i] = false;
		for (size_t k = 0; k < (all ? f->n : ns); k++) {
			size_t j = all ? k : (size_t)succ[k];
			int call = f->ins[i].call && j == i + 1 ? (int)i : -1;

			if (all && !f->ins[j].via_ijmp)
				continue;
			if (merge(f, j, out, call, &noret) && !queued[j]) {
				work[nw++] = j;
				queued[j] = true;
			}
		}
	}
	return noret;
}

/* Passes until no call is found not to return; false when that does not settle. */
static bool stack_passes(struct fn *f, size_t *work, bool *queued, bool *found)
{
	int call;

	for (int tries = 0; tries < 256; tries++) {
		if ((call = stack_pass(f, work, queued)) < 0)
			return true;
		f->ins[call].noret = true;
		*found = true;
	}
	return false;
}

/*
 * rsp and rbp at every instruction, from rsp = 0 at the entry, over the
 * control-flow graph.  Each call found not to return loses its fall-through
 * and the walk starts over (a few times at most in real code).  An indirect
 * jump (a switch's table, a tail call through a pointer) goes to what no
 * direct edge reaches: first the walk without them, then again with them
 * going there.
 */
static void follow_stack(struct fn *f)
{
	size_t *work = xcalloc(f->n + 1, sizeof(*work));
	bool *queued = xcalloc(f->n, sizeof(*queued)), found = true, ijmp;

	f->st = xcalloc(f->n, sizeof(*f->st));
	for (int rounds = 0; found && rounds < 16; rounds++) {
		found = false;
		for (size_t i = 0; i < f->n; i++)
			f->ins[i].via_ijmp = false;
		if (!stack_passes(f, work, queued, &found))
			break;
		ijmp = false;
		for (size_t i = 0; i < f->n; i++)
			ijmp |= f->st[i].reached && f->ins[i].flow == F_IJMP;
		for (size_t i = 0; i < f->n; i++)
			f->ins[i].via_ijmp = ijmp && !f->st[i].reached;
		if (!stack_passes(f, work, queued, &found))
			break;
	}
	free(work);
	free(queued);
}

/* The bytes a (of instruction i) touches below rsp_site: [*lo, *hi); false when none or unknown. */
static bool below(const struct fn *f, size_t i, const struct access *a, int64_t rsp_site,
		  int64_t *lo, int64_t *hi, bool *unknown)
{
	const struct state *s = &f->st[i];

	if (a->base == B_BP && s->bpk == BPS_OTHER)
		return false; /* rbp is no stack pointer here */
	if (!s->reached || (a->base == B_SP && !s->sp_ok) ||
	    (a->base == B_BP && s->bpk != BPS_KNOWN)) {
		*unknown |= s->reached;
		return false;
	}
	*lo = (a->base == B_SP ? s->sp : s->bp) + a->disp;
	/* base + index * scale + disp: anything from disp up to the site's rsp, as far as we know.
	 */
	*hi = a->indexed ? rsp_site : *lo + a->size;
	if (*hi > rsp_site)
		*hi = rsp_site;
	return *lo < *hi;
}

/* Successor and predecessor lists (an indirect jump's successors: every instruction). */
static void build_graph(struct fn *f)
{
	size_t npred = 0;

	f->succ = xcalloc(f->n, sizeof(*f->succ));
	f->nsucc = xcalloc(f->n, sizeof(*f->nsucc));
	f->pred_at = xcalloc(f->n + 1, sizeof(*f->pred_at));
	f->ijmp = xcalloc(f->n, sizeof(*f->ijmp));
	for (size_t i = 0; i < f->n; i++) {
		bool all;

		f->nsucc[i] = (uint8_t)successors(f, i, f->succ[i], &all);
		if (all)
			f->ijmp[f->nijmp++] = (int)i;
		for (uint8_t k = 0; k < f->nsucc[i]; k++)
			f->pred_at[f->succ[i][k] + 1]++;
		npred += f->nsucc[i];
	}
	for (size_t i = 0; i < f->n; i++)
		f->pred_at[i + 1] += f->pred_at[i];
	f->pred = xcalloc(npred + 1, sizeof(*f->pred));
	{
		size_t *fill = xcalloc(f->n, sizeof(*fill));

		for (size_t i = 0; i < f->n; i++)
			for (uint8_t k = 0; k < f->nsucc[i]; k++) {
				size_t j = (size_t)f->succ[i][k];

				f->pred[f->pred_at[j] + fill[j]++] = (int)i;
			}
		free(fill);
	}
}

/* Does instruction i overwrite all of [klo, khi) below the site's rsp? */
static bool overwrites(const struct fn *f, size_t i, int64_t rsp_site, int64_t klo, int64_t khi)
{
	bool unknown = false;

	for (uint8_t m = 0; m < f->ins[i].nmem; m++) {
		const struct access *a = &f->ins[i].mem[m];
		int64_t lo, hi;

		if ((a->rw & CS_AC_WRITE) && !a->indexed &&
		    below(f, i, a, rsp_site, &lo, &hi, &unknown) && lo <= klo && hi >= khi)
			return true;
	}
	return false;
}

/*
 * seen[j]: j is reached from the site (forward) or reaches it (backward)
 * without passing through the site again.  With klo < khi, the forward walk
 * does not go past an instruction that overwrites [klo, khi), but for `keep`.
 */
static void walk(const struct fn *f, size_t site, bool forward, int64_t rsp_site, int64_t klo,
		 int64_t khi, size_t keep, bool *seen)
{
	size_t *work = xcalloc(f->n + 1, sizeof(*work)), nw = 0;

	memset(seen, 0, f->n * sizeof(*seen));
	work[nw++] = site;
	while (nw) {
		size_t i = work[--nw], n;
		const int *next;

		if (i != site && i != keep && klo < khi && overwrites(f, i, rsp_site, klo, khi))
			continue;
		if (forward) {
			bool all = f->ins[i].flow == F_IJMP;

			next = f->succ[i];
			n = all ? f->n : f->nsucc[i];
			for (size_t k = 0; k < n; k++) {
				size_t j = all ? k : (size_t)next[k];

				if (all && !f->ins[j].via_ijmp)
					continue;
				if (!seen[j]) {
					seen[j] = true;
					if (j != site)
						work[nw++] = j;
				}
			}
			continue;
		}
		next = f->pred + f->pred_at[i];
		n = f->pred_at[i + 1] - f->pred_at[i];
		for (size_t k = 0; k < n + (f->ins[i].via_ijmp ? f->nijmp : 0); k++) {
			size_t j = (size_t)(k < n ? next[k] : f->ijmp[k - n]);

			if (!seen[j]) {
				seen[j] = true;
				if (j != site)
					work[nw++] = j;
			}
		}
	}
	free(work);
}

static void fn_release(struct fn *f)
{
	free(f->ins);
	free(f->st);
	free(f->succ);
	free(f->nsucc);
	free(f->pred_at);
	free(f->pred);
	free(f->ijmp);
}

/* "-0x10(%rsp)": an offset from the site's rsp. */
static void fmt_off(int64_t off, char *buf, size_t len)
{
	snprintf(buf, len, "%s0x%llx(%%rsp)", off < 0 ? "-" : "",
		 (unsigned long long)(off < 0 ? -off : off));
}

/* A write before the site and a read after it, of bytes below its rsp, the read seeing the write's.
 */
static bool kept(const struct fn *f, size_t s, int64_t rsp, const bool *before, const bool *after,
		 bool *seen, char *why, size_t wlen, bool *unknown)
{
	for (size_t i = 0; i < f->n; i++) {
		for (uint8_t m = 0; after[i] && i != s && m < f->ins[i].nmem; m++) {
			const struct access *r = &f->ins[i].mem[m];
			int64_t rlo, rhi;

			if (!(r->rw & CS_AC_READ) || !below(f, i, r, rsp, &rlo, &rhi, unknown))
				continue;
			for (size_t j = 0; j < f->n; j++)
				for (uint8_t k = 0; before[j] && j != s && k < f->ins[j].nmem;
				     k++) {
					const struct access *w = &f->ins[j].mem[k];
					int64_t wlo, whi, lo, hi;
					char o[32];

					if (!(w->rw & CS_AC_WRITE) ||
					    !below(f, j, w, rsp, &wlo, &whi, unknown))
						continue;
					lo = rlo > wlo ? rlo : wlo;
					hi = rhi < whi ? rhi : whi;
					if (lo >= hi)
						continue;
					walk(f, s, true, rsp, lo, hi, i, seen);
					if (!seen[i])
						continue;
					fmt_off(lo - rsp, o, sizeof(o));
					snprintf(
						why, wlen,
						"keeps %s across the site: written at +0x%llx, read at "
						"+0x%llx",
						o,
						(unsigned long long)(f->ins[j].addr -
								     f->ins[0].addr),
						(unsigned long long)(f->ins[i].addr -
								     f->ins[0].addr));
					return true;
				}
		}
	}
	return false;
}

/* Is any access of the instructions marked at an offset not known? */
static bool unknown_access(const struct fn *f, const bool *mark, int64_t rsp)
{
	bool unknown = false;

	for (size_t i = 0; i < f->n; i++)
		for (uint8_t m = 0; mark[i] && m < f->ins[i].nmem; m++) {
			int64_t lo, hi;

			below(f, i, &f->ins[i].mem[m], rsp, &lo, &hi, &unknown);
		}
	return unknown;
}

static int analyze(csh h, const uint8_t *code, size_t len, uint64_t fn, uint64_t site, char *why,
		   size_t wlen)
{
	struct fn f = { 0 };
	bool *before, *after, *seen, unknown = false;
	int s, rc;
	int64_t rsp;

	if (!h || decode(h, code, len, fn, &f)) {
		snprintf(why, wlen, "Capstone cannot decode the function");
		fn_release(&f);
		return -1;
	}
	if ((s = find_ins(&f, site)) < 0) {
		snprintf(why, wlen, "the site +0x%llx is not at an instruction boundary",
			 (unsigned long long)(site - fn));
		fn_release(&f);
		return -1;
	}
	follow_stack(&f); /* first: it finds the calls that do not return */
	build_graph(&f);
	if (!f.st[s].reached || !f.st[s].sp_ok) {
		if (!f.st[s].reached)
			snprintf(why, wlen, "the site is not reached from the function's entry");
		else if (f.lost_at >= 0)
			snprintf(why, wlen,
				 "rsp at the site is not known (changed at +0x%llx in a way "
				 "not followed)",
				 (unsigned long long)(f.ins[f.lost_at].addr - fn));
		else
			snprintf(why, wlen, "rsp at the site differs between the paths to it");
		fn_release(&f);
		return -1;
	}
	rsp = f.st[s].sp;
	before = xcalloc(f.n, sizeof(bool));
	after = xcalloc(f.n, sizeof(bool));
	seen = xcalloc(f.n, sizeof(bool));
	walk(&f, (size_t)s, false, rsp, 0, 0, (size_t)s, before);
	walk(&f, (size_t)s, true, rsp, 0, 0, (size_t)s, after);
	if (kept(&f, (size_t)s, rsp, before, after, seen, why, wlen, &unknown)) {
		rc = 1;
	} else if (unknown_access(&f, before, rsp) || unknown_access(&f, after, rsp)) {
		snprintf(why, wlen,
			 "an access through rsp or rbp near the site is at an offset not "
			 "known");
		rc = -1;
	} else {
		snprintf(why, wlen, "nothing below rsp is kept across the site");
		rc = 0;
	}
	free(before);
	free(after);
	free(seen);
	fn_release(&f);
	return rc;
}

int pcost_red_zone_live(const uint8_t *code, size_t len, uint64_t fn, uint64_t site, char *why,
			size_t wlen)
{
	csh h = disassembler();
	int rc = analyze(h, code, len, fn, site, why, wlen);

	if (h)
		cs_close(&h);
	return rc;
}

/* ---- an ELF file's sites ---- */

struct sym {
	char *name;
	uint64_t addr, size;
};

struct code {
	uint64_t addr, size;
	const uint8_t *bytes;
};

struct pcost_site_file {
	int fd;
	Elf *elf;
	bool x86_64;
	struct sym *syms;
	size_t nsyms, cap;
	struct code *code;
	size_t ncode;
	csh cs;
};

void pcost_site_file_free(struct pcost_site_file *f)
{
	if (!f)
		return;
	for (size_t i = 0; i < f->nsyms; i++)
		free(f->syms[i].name);
	free(f->syms);
	free(f->code);
	if (f->elf)
		elf_end(f->elf);
	if (f->fd >= 0)
		close(f->fd);
	if (f->cs)
		cs_close(&f->cs);
	free(f);
}

static void read_symbols(struct pcost_site_file *f, Elf_Scn *scn, const GElf_Shdr *sh)
{
	Elf_Data *d = elf_getdata(scn, NULL);
	size_t n = sh->sh_entsize ? sh->sh_size / sh->sh_entsize : 0;

	for (size_t i = 0; d && i < n; i++) {
		GElf_Sym sym;
		const char *name;

		if (!gelf_getsym(d, (int)i, &sym) || GELF_ST_TYPE(sym.st_info) != STT_FUNC ||
		    !sym.st_size || sym.st_shndx == SHN_UNDEF)
			continue;
		name = elf_strptr(f->elf, sh->sh_link, sym.st_name);
		if (f->nsyms == f->cap) {
			f->cap = f->cap ? 2 * f->cap : 256;
			f->syms = xrealloc(f->syms, f->cap * sizeof(*f->syms));
		}
		f->syms[f->nsyms++] =
			(struct sym){ xstrdup(name ? name : "?"), sym.st_value, sym.st_size };
	}
}

int pcost_site_file_open(const char *path, struct pcost_site_file **out)
{
	struct pcost_site_file *f = xcalloc(1, sizeof(*f));
	Elf_Scn *scn = NULL;
	GElf_Ehdr eh;
	struct stat st;

	*out = NULL;
	elf_version(EV_CURRENT);
	f->fd = -1;
	f->fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	if (f->fd < 0) {
		int e = errno;

		pcost_site_file_free(f);
		return -e;
	}
	if (fstat(f->fd, &st) || !S_ISREG(st.st_mode)) {
		pcost_site_file_free(f);
		return -EISDIR;
	}
	/*
	 * read(), not mmap: while a uprobe is registered on the file, the kernel
	 * puts its int3 (or its optimized call) into every new mapping of the
	 * file that could execute (uprobe_mmap), our private read-only one too.
	 * The page cache holds the file's own bytes.
	 */
	f->elf = elf_begin(f->fd, ELF_C_READ, NULL);
	if (!f->elf || elf_kind(f->elf) != ELF_K_ELF || !gelf_getehdr(f->elf, &eh)) {
		pcost_site_file_free(f);
		return -ENOEXEC;
	}
	f->x86_64 = eh.e_machine == EM_X86_64 && gelf_getclass(f->elf) == ELFCLASS64;
	while ((scn = elf_nextscn(f->elf, scn))) {
		GElf_Shdr sh;
		Elf_Data *d;

		if (!gelf_getshdr(scn, &sh))
			continue;
		if (sh.sh_type == SHT_SYMTAB || sh.sh_type == SHT_DYNSYM) {
			read_symbols(f, scn, &sh);
		} else if (sh.sh_type == SHT_PROGBITS && (sh.sh_flags & SHF_EXECINSTR) &&
			   (d = elf_getdata(scn, NULL)) && d->d_buf && d->d_size == sh.sh_size) {
			f->code = xrealloc(f->code, (f->ncode + 1) * sizeof(*f->code));
			f->code[f->ncode++] = (struct code){ sh.sh_addr, sh.sh_size, d->d_buf };
		}
	}
	f->cs = f->x86_64 ? disassembler() : 0;
	*out = f;
	return 0;
}

/* The bytes at [addr, addr + *len) in an executable section (*len cut at its end); NULL if none. */
static const uint8_t *code_at(const struct pcost_site_file *f, uint64_t addr, size_t *len)
{
	for (size_t i = 0; i < f->ncode; i++) {
		const struct code *c = &f->code[i];

		if (addr >= c->addr && addr - c->addr < c->size) {
			if (*len > c->size - (addr - c->addr))
				*len = (size_t)(c->size - (addr - c->addr));
			return c->bytes + (addr - c->addr);
		}
	}
	return NULL;
}

/* The smallest function symbol holding addr. */
static const struct sym *function_at(const struct pcost_site_file *f, uint64_t addr)
{
	const struct sym *best = NULL;

	for (size_t i = 0; i < f->nsyms; i++) {
		const struct sym *s = &f->syms[i];

		if (addr >= s->addr && addr - s->addr < s->size && (!best || s->size < best->size))
			best = s;
	}
	return best;
}

#define PAGE 4096 /* x86-64: the kernel cannot patch 5 bytes across a page (can_optimize) */

void pcost_site_facts_at(const struct pcost_site_file *f, uint64_t vaddr,
			 struct pcost_site_facts *out)
{
	size_t len = 15, flen;
	const uint8_t *at = code_at(f, vaddr, &len), *body;
	const struct sym *fn = function_at(f, vaddr);
	int kernel = kernel_optimizes_nop5();

	memset(out, 0, sizeof(*out));
	out->red_zone_live = -1;
	out->encoding = at && f->x86_64 ? classify(f->cs, at, len) : PCOST_SITE_OTHER;
	if (!f->x86_64)
		out->optimizable = 0; /* the uprobe trampoline is x86-64's */
	else if (kernel < 0)
		out->optimizable = -1;
	else
		out->optimizable =
			kernel && out->encoding == PCOST_SITE_NOP5 && PAGE - vaddr % PAGE >= 5;
	if (!f->x86_64) {
		snprintf(out->why, sizeof(out->why), "not an x86-64 file");
		return;
	}
	if (!at) {
		snprintf(out->why, sizeof(out->why), "the site is not in an executable section");
		return;
	}
	if (!fn) {
		snprintf(out->why, sizeof(out->why),
			 "no function symbol holds the site (stripped?)");
		return;
	}
	snprintf(out->function, sizeof(out->function), "%s", fn->name);
	out->fn_offset = vaddr - fn->addr;
	flen = (size_t)fn->size;
	body = code_at(f, fn->addr, &flen);
	if (!body || flen != fn->size) {
		snprintf(out->why, sizeof(out->why), "the function's code is not in the file");
		return;
	}
	out->red_zone_live =
		analyze(f->cs, body, flen, fn->addr, vaddr, out->why, sizeof(out->why));
}

/* Sites of one row: any live site makes the row live; unknown stays unless a site decides. */
void pcost_site_facts_merge(struct pcost_site_facts *acc, const struct pcost_site_facts *f)
{
	if (acc->encoding != f->encoding)
		acc->encoding = PCOST_SITE_OTHER;
	if (f->red_zone_live == 1 || (f->red_zone_live < 0 && acc->red_zone_live == 0)) {
		if (acc->red_zone_live != 1) {
			acc->red_zone_live = f->red_zone_live;
			snprintf(acc->function, sizeof(acc->function), "%s", f->function);
			acc->fn_offset = f->fn_offset;
			snprintf(acc->why, sizeof(acc->why), "%s", f->why);
		}
	}
	if (acc->optimizable != f->optimizable)
		acc->optimizable = -1;
}

static cJSON *fact_json(int v)
{
	return v < 0 ? cJSON_CreateNull() : cJSON_CreateBool(v > 0);
}

cJSON *pcost_site_facts_json(const struct pcost_site_facts *f)
{
	cJSON *o = cJSON_CreateObject();

	cJSON_AddStringToObject(o, "encoding", pcost_site_encoding_name(f->encoding));
	cJSON_AddItemToObject(o, "red_zone_live", fact_json(f->red_zone_live));
	cJSON_AddItemToObject(o, "optimizable", fact_json(f->optimizable));
	return o;
}

bool pcost_sdt_args_below_rsp(const char *args)
{
	/* Each argument is SIZE@OPERAND, space separated (sys/sdt.h). */
	for (const char *a = args; a && *a; a += strcspn(a, " "), a += strspn(a, " ")) {
		const char *op = memchr(a, '@', strcspn(a, " "));
		size_t n;

		if (!op)
			continue;
		n = strcspn(++op, " ");
		if (op[0] == '-' && memmem(op, n, "(%rsp", 5))
			return true;
	}
	return false;
}

bool pcost_site_armed_warning(char *buf, size_t len, const char *provider, const char *name,
			      const struct pcost_site_facts *f, bool args_below_rsp,
			      const char *fix)
{
	bool live = f->red_zone_live > 0;

	if (f->optimizable <= 0 || (!live && !args_below_rsp))
		return false;
	snprintf(buf, len,
		 "%s:%s at %s+0x%llx %s once armed: the kernel optimizes its nop5 into a CALL, "
		 "which pushes into the red zone%s%s%s; %s",
		 provider, name, f->function, (unsigned long long)f->fn_offset,
		 live ? "may change the program" : "will report wrong arguments",
		 live ? ", and the function " : "", live ? f->why : "",
		 !args_below_rsp ? ""
		 : live		 ? "; the tracer reads its arguments from there too"
				 : ", where the tracer reads its arguments from",
		 fix);
	return true;
}
