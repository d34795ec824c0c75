/**
 * Regular expressions of the `matches` comparer, run in linear time.
 *
 * The host's RegExp backtracks, so a pattern such as `(a+)+$` can stall a process on a short
 * input. Patterns are therefore compiled here into an automaton and run by simulating all its
 * states at once (Thompson's construction): the time is proportional to the input's length
 * times the pattern's size, whatever the pattern and the input. Pure code, so it runs in the SDK
 * and the browser as in the server.
 *
 * Syntax (a subset of JavaScript's, over code points): literals; `.` (any character except line
 * terminators); classes `[abc]`, `[^a-z]`; escapes `\d \D \w \W \s \S \t \n \r \f \v`,
 * `\xHH`, `\uHHHH` and `\` before any punctuation; groups `( )` and `(?: )`; alternation `|`;
 * quantifiers `* + ? {n} {n,} {n,m}` (n, m at most 1000; a trailing `?` is accepted and changes
 * nothing, since only whether there is a match counts); anchors `^` (start of the value) and `$`
 * (end of the value). A pattern matches a value when it matches some part of it; anchor it with
 * `^...$` to match the whole value. Refused: back-references, lookaround, `\b`, inline flags,
 * named groups, and anything else not listed, patterns over PATTERN_MAX_LENGTH characters and
 * patterns whose automaton exceeds PROGRAM_MAX_SIZE states.
 */

export const PATTERN_MAX_LENGTH = 500;
const PROGRAM_MAX_SIZE = 20_000;
const REPEAT_MAX = 1000;

/** Inclusive code-point ranges, sorted and disjoint. */
type Ranges = readonly number[];

type Syntax =
  | { readonly kind: 'set'; readonly ranges: Ranges }
  | { readonly kind: 'bol' }
  | { readonly kind: 'eol' }
  | { readonly kind: 'empty' }
  | { readonly kind: 'concat'; readonly items: readonly Syntax[] }
  | { readonly kind: 'alt'; readonly items: readonly Syntax[] }
  | { readonly kind: 'repeat'; readonly item: Syntax; readonly min: number; readonly max: number };

const MAX_CODE_POINT = 0x10ffff;
const DIGIT: Ranges = [48, 57];
const WORD: Ranges = [48, 57, 65, 90, 95, 95, 97, 122];
const SPACE: Ranges = [9, 13, 32, 32, 160, 160, 5760, 5760, 8192, 8202, 8232, 8233, 8239, 8239, 8287, 8287, 12288, 12288, 65279, 65279];
const LINE_TERMINATORS: Ranges = [10, 10, 13, 13, 8232, 8233];

function normalise(pairs: number[]): number[] {
  const list: [number, number][] = [];
  for (let i = 0; i < pairs.length; i += 2) list.push([pairs[i] as number, pairs[i + 1] as number]);
  list.sort((a, b) => a[0] - b[0]);
  const out: number[] = [];
  for (const [lo, hi] of list) {
    const n = out.length;
    if (n > 0 && lo <= (out[n - 1] as number) + 1) {
      out[n - 1] = Math.max(out[n - 1] as number, hi);
    } else {
      out.push(lo, hi);
    }
  }
  return out;
}

function complement(ranges: Ranges): number[] {
  const out: number[] = [];
  let next = 0;
  for (let i = 0; i < ranges.length; i += 2) {
    const lo = ranges[i] as number;
    if (lo > next) out.push(next, lo - 1);
    next = (ranges[i + 1] as number) + 1;
  }
  if (next <= MAX_CODE_POINT) out.push(next, MAX_CODE_POINT);
  return out;
}

const ANY_BUT_LINE_TERMINATORS = complement(LINE_TERMINATORS);

class PatternError extends Error {}

/** Recursive-descent parser over the pattern's code points. */
class Parser {
  private readonly cps: number[];
  private pos = 0;

  constructor(pattern: string) {
    this.cps = Array.from(pattern, (ch) => ch.codePointAt(0) as number);
  }

  parse(): Syntax {
    const tree = this.alternation();
    if (this.pos < this.cps.length) throw new PatternError(`unexpected ")" at ${this.pos}`);
    return tree;
  }

  private peek(): number | undefined {
    return this.cps[this.pos];
  }

  private alternation(): Syntax {
    const items = [this.concatenation()];
    while (this.peek() === 124 /* | */) {
      this.pos++;
      items.push(this.concatenation());
    }
    return items.length === 1 ? (items[0] as Syntax) : { kind: 'alt', items };
  }

  private concatenation(): Syntax {
    const items: Syntax[] = [];
    for (;;) {
      const c = this.peek();
      if (c === undefined || c === 124 /* | */ || c === 41 /* ) */) break;
      items.push(this.quantified());
    }
    if (items.length === 0) return { kind: 'empty' };
    return items.length === 1 ? (items[0] as Syntax) : { kind: 'concat', items };
  }

  private quantified(): Syntax {
    const atomAt = this.pos;
    const atom = this.atom();
    const c = this.peek();
    let min: number;
    let max: number;
    if (c === 42 /* * */) {
      this.pos++;
      min = 0;
      max = Infinity;
    } else if (c === 43 /* + */) {
      this.pos++;
      min = 1;
      max = Infinity;
    } else if (c === 63 /* ? */) {
      this.pos++;
      min = 0;
      max = 1;
    } else if (c === 123 /* { */ && this.isCountedRepeat()) {
      [min, max] = this.countedRepeat();
    } else {
      return atom;
    }
    if (atom.kind === 'bol' || atom.kind === 'eol') throw new PatternError(`nothing to repeat at ${atomAt}`);
    if (this.peek() === 63 /* ? */) this.pos++; // lazy form: same matches
    const next = this.peek();
    if (next === 42 || next === 43 || next === 63 || (next === 123 && this.isCountedRepeat())) {
      throw new PatternError(`nothing to repeat at ${this.pos}`);
    }
    return { kind: 'repeat', item: atom, min, max };
  }

  private isCountedRepeat(): boolean {
    let i = this.pos + 1;
    const digitsFrom = i;
    while (isDigit(this.cps[i])) i++;
    if (i === digitsFrom) return false;
    if (this.cps[i] === 125 /* } */) return true;
    if (this.cps[i] !== 44 /* , */) return false;
    i++;
    while (isDigit(this.cps[i])) i++;
    return this.cps[i] === 125;
  }

  private number(): number {
    let n = 0;
    while (isDigit(this.peek())) {
      n = Math.min(n * 10 + ((this.peek() as number) - 48), REPEAT_MAX + 1);
      this.pos++;
    }
    return n;
  }

  private countedRepeat(): [number, number] {
    this.pos++; // {
    const min = this.number();
    let max = min;
    if (this.peek() === 44 /* , */) {
      this.pos++;
      max = isDigit(this.peek()) ? this.number() : Infinity;
    }
    this.pos++; // }
    if (min > REPEAT_MAX || (max !== Infinity && max > REPEAT_MAX)) throw new PatternError(`repetition above ${REPEAT_MAX}`);
    if (max < min) throw new PatternError('repetition range out of order');
    return [min, max];
  }

  private atom(): Syntax {
    const c = this.peek() as number;
    const at = this.pos;
    this.pos++;
    switch (c) {
      case 40 /* ( */:
        {
          if (this.peek() === 63 /* ? */) {
            if (this.cps[this.pos + 1] !== 58 /* : */) throw new PatternError(`unsupported group at ${at}`);
            this.pos += 2;
          }
          const inner = this.alternation();
          if (this.peek() !== 41 /* ) */) throw new PatternError(`missing ")" for the group at ${at}`);
          this.pos++;
          return inner;
        }
      case 91 /* [ */:
        return { kind: 'set', ranges: this.characterClass(at) };
      case 46 /* . */:
        return { kind: 'set', ranges: ANY_BUT_LINE_TERMINATORS };
      case 94 /* ^ */:
        return { kind: 'bol' };
      case 36 /* $ */:
        return { kind: 'eol' };
      case 92 /* \ */:
        return { kind: 'set', ranges: this.escape(false) };
      case 42 /* * */:
      case 43 /* + */:
      case 63 /* ? */:
        throw new PatternError(`nothing to repeat at ${at}`);
      case 123 /* { */:
      case 125 /* } */:
      case 93 /* ] */:
        throw new PatternError(`unescaped "${String.fromCodePoint(c)}" at ${at}`);
      default:
        return { kind: 'set', ranges: [c, c] };
    }
  }

  /** After a backslash: the set it denotes. Inside a class, `\b` is not accepted either. */
  private escape(inClass: boolean): Ranges {
    const c = this.peek();
    if (c === undefined) throw new PatternError('pattern ends with "\\"');
    this.pos++;
    switch (c) {
      case 100 /* d */:
        return DIGIT;
      case 68 /* D */:
        return complement(DIGIT);
      case 119 /* w */:
        return WORD;
      case 87 /* W */:
        return complement(WORD);
      case 115 /* s */:
        return SPACE;
      case 83 /* S */:
        return complement(SPACE);
      case 116 /* t */:
        return [9, 9];
      case 110 /* n */:
        return [10, 10];
      case 114 /* r */:
        return [13, 13];
      case 102 /* f */:
        return [12, 12];
      case 118 /* v */:
        return [11, 11];
      case 120 /* x */:
        return this.hexEscape(2);
      case 117 /* u */:
        return this.hexEscape(4);
      default:
        if (c < 128 && !isAlphanumeric(c)) return [c, c];
        throw new PatternError(`unsupported escape "\\${String.fromCodePoint(c)}"${inClass ? ' in a class' : ''}`);
    }
  }

  private hexEscape(digits: number): Ranges {
    let value = 0;
    for (let i = 0; i < digits; i++) {
      const d = hexValue(this.peek());
      if (d < 0) throw new PatternError(`bad hexadecimal escape at ${this.pos}`);
      value = value * 16 + d;
      this.pos++;
    }
    return [value, value];
  }

  private characterClass(at: number): Ranges {
    let negate = false;
    if (this.peek() === 94 /* ^ */) {
      negate = true;
      this.pos++;
    }
    const pairs: number[] = [];
    let first = true;
    for (;;) {
      const c = this.peek();
      if (c === undefined) throw new PatternError(`missing "]" for the class at ${at}`);
      if (c === 93 /* ] */ && !first) {
        this.pos++;
        break;
      }
      first = false;
      const lo = this.classAtom();
      if (this.peek() === 45 /* - */ && this.cps[this.pos + 1] !== undefined && this.cps[this.pos + 1] !== 93) {
        this.pos++;
        const hi = this.classAtom();
        if (lo.length !== 2 || hi.length !== 2 || lo[0] !== lo[1] || hi[0] !== hi[1]) {
          throw new PatternError(`bad class range at ${this.pos}`);
        }
        if ((hi[0] as number) < (lo[0] as number)) throw new PatternError(`class range out of order at ${this.pos}`);
        pairs.push(lo[0] as number, hi[0] as number);
      } else {
        pairs.push(...lo);
      }
    }
    const ranges = normalise(pairs);
    return negate ? complement(ranges) : ranges;
  }

  private classAtom(): Ranges {
    const c = this.peek() as number;
    this.pos++;
    if (c === 92 /* \ */) return this.escape(true);
    if (c === 91 /* [ */) throw new PatternError(`unescaped "[" in a class at ${this.pos - 1}`);
    return [c, c];
  }
}

function isDigit(c: number | undefined): boolean {
  return c !== undefined && c >= 48 && c <= 57;
}

function isAlphanumeric(c: number): boolean {
  return isDigit(c) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122);
}

function hexValue(c: number | undefined): number {
  if (c === undefined) return -1;
  if (c >= 48 && c <= 57) return c - 48;
  if (c >= 65 && c <= 70) return c - 55;
  if (c >= 97 && c <= 102) return c - 87;
  return -1;
}

// Instructions of the automaton.
const I_SET = 0;
const I_SPLIT = 1;
const I_JUMP = 2;
const I_BOL = 3;
const I_EOL = 4;
const I_MATCH = 5;

interface Instruction {
  op: number;
  /** I_SET: the character set. */
  ranges: Ranges;
  /** I_SPLIT, I_JUMP: targets. */
  x: number;
  y: number;
}

class Compiler {
  readonly program: Instruction[] = [];

  private emit(op: number, ranges: Ranges = [], x = -1, y = -1): number {
    if (this.program.length >= PROGRAM_MAX_SIZE) throw new PatternError('pattern too large');
    this.program.push({ op, ranges, x, y });
    return this.program.length - 1;
  }

  compile(tree: Syntax): void {
    switch (tree.kind) {
      case 'set':
        this.emit(I_SET, tree.ranges);
        return;
      case 'bol':
        this.emit(I_BOL);
        return;
      case 'eol':
        this.emit(I_EOL);
        return;
      case 'empty':
        return;
      case 'concat':
        for (const item of tree.items) this.compile(item);
        return;
      case 'alt': {
        // split L1, next; L1: a; jump end; next: split L2, ...
        const jumps: number[] = [];
        for (let i = 0; i < tree.items.length; i++) {
          if (i < tree.items.length - 1) {
            const split = this.emit(I_SPLIT);
            (this.program[split] as Instruction).x = split + 1;
            this.compile(tree.items[i] as Syntax);
            jumps.push(this.emit(I_JUMP));
            (this.program[split] as Instruction).y = this.program.length;
          } else {
            this.compile(tree.items[i] as Syntax);
          }
        }
        for (const j of jumps) (this.program[j] as Instruction).x = this.program.length;
        return;
      }
      case 'repeat': {
        for (let i = 0; i < tree.min; i++) this.compile(tree.item);
        if (tree.max === Infinity) {
          // L: split body, end; body; jump L
          const split = this.emit(I_SPLIT);
          (this.program[split] as Instruction).x = split + 1;
          this.compile(tree.item);
          this.emit(I_JUMP, [], split);
          (this.program[split] as Instruction).y = this.program.length;
        } else {
          // optional copies: split body, end; body; (nested)
          const splits: number[] = [];
          for (let i = tree.min; i < tree.max; i++) {
            const split = this.emit(I_SPLIT);
            (this.program[split] as Instruction).x = split + 1;
            splits.push(split);
            this.compile(tree.item);
          }
          for (const s of splits) (this.program[s] as Instruction).y = this.program.length;
        }
        return;
      }
    }
  }
}

/** A compiled pattern. */
export class LinearRegex {
  /** @internal */
  declare readonly program: readonly Instruction[];
  /** @internal scratch: the step at which each instruction was last added to a list */
  declare readonly mark: Int32Array;
  /** @internal scratch: instruction lists of the current and the next position, and a stack */
  declare readonly current: Int32Array;
  declare readonly next: Int32Array;
  declare readonly stack: Int32Array;
  declare step: number;

  /** @internal use compileRegex */
  constructor(program: readonly Instruction[]) {
    this.program = program;
    const n = program.length;
    this.mark = new Int32Array(n).fill(-1);
    this.current = new Int32Array(n);
    this.next = new Int32Array(n);
    this.stack = new Int32Array(n + 1);
    this.step = 0;
  }

  /** Whether the pattern matches some part of `input`. */
  test(input: string): boolean {
    const program = this.program;
    let current = this.current;
    let next = this.next;
    if (this.step > 0x3fff0000) {
      this.mark.fill(-1);
      this.step = 0;
    }
    const length = input.length;
    let position = 0;
    let count = this.addFrom(0, position, length, current, 0, ++this.step);
    if (count < 0) return true;
    while (position < length) {
      const cp = input.codePointAt(position) as number;
      const nextPosition = position + (cp > 0xffff ? 2 : 1);
      const stamp = ++this.step;
      let nextCount = 0;
      for (let i = 0; i < count; i++) {
        const pc = current[i] as number;
        if (!inSet((program[pc] as Instruction).ranges, cp)) continue;
        nextCount = this.addFrom(pc + 1, nextPosition, length, next, nextCount, stamp);
        if (nextCount < 0) return true;
      }
      // unanchored search: a new attempt starts at every position
      nextCount = this.addFrom(0, nextPosition, length, next, nextCount, stamp);
      if (nextCount < 0) return true;
      const swap = current;
      current = next;
      next = swap;
      count = nextCount;
      position = nextPosition;
    }
    return false;
  }

  /**
   * Adds the instructions reachable from `pc` without reading a character to `list` (only
   * I_SET instructions are kept); returns the new count, or -1 when I_MATCH is reachable.
   */
  private addFrom(pc: number, position: number, length: number, list: Int32Array, count: number, stamp: number): number {
    const program = this.program;
    const mark = this.mark;
    const stack = this.stack;
    let top = 0;
    stack[top++] = pc;
    while (top > 0) {
      const at = stack[--top] as number;
      if (at >= program.length) return -1; // end of program: the pattern matched
      if (mark[at] === stamp) continue;
      mark[at] = stamp;
      const inst = program[at] as Instruction;
      switch (inst.op) {
        case I_SET:
          list[count++] = at;
          break;
        case I_JUMP:
          stack[top++] = inst.x;
          break;
        case I_SPLIT:
          stack[top++] = inst.y;
          stack[top++] = inst.x;
          break;
        case I_BOL:
          if (position === 0) stack[top++] = at + 1;
          break;
        case I_EOL:
          if (position === length) stack[top++] = at + 1;
          break;
        default:
          return -1; // I_MATCH
      }
    }
    return count;
  }
}

function inSet(ranges: Ranges, cp: number): boolean {
  for (let i = 0; i < ranges.length; i += 2) {
    if (cp < (ranges[i] as number)) return false;
    if (cp <= (ranges[i + 1] as number)) return true;
  }
  return false;
}

export type CompileRegexResult = { ok: true; regex: LinearRegex } | { ok: false; reason: string };

/** Compiles a pattern of the `matches` comparer, or says why it cannot be run. */
export function compileRegex(pattern: string): CompileRegexResult {
  if (pattern.length > PATTERN_MAX_LENGTH) return { ok: false, reason: `longer than ${PATTERN_MAX_LENGTH} characters` };
  try {
    const tree = new Parser(pattern).parse();
    const compiler = new Compiler();
    compiler.compile(tree);
    compiler.program.push({ op: I_MATCH, ranges: [], x: -1, y: -1 });
    return { ok: true, regex: new LinearRegex(compiler.program) };
  } catch (e) {
    if (e instanceof PatternError) return { ok: false, reason: e.message };
    throw e;
  }
}
