/**
 * The syntax of the `matches` comparer's patterns, parsed into a tree that linear-regex.ts
 * compiles into an automaton. Pure code, like the rest of the engine.
 *
 * Syntax (a subset of JavaScript's, over code points): literals; `.` (any character except line
 * terminators); classes `[abc]`, `[^a-z]`; escapes `\d \D \w \W \s \S \t \n \r \f \v`,
 * `\xHH`, `\uHHHH` and `\` before any punctuation; groups `( )` and `(?: )`; alternation `|`;
 * quantifiers `* + ? {n} {n,} {n,m}` (n, m at most 1000; a trailing `?` is accepted and changes
 * nothing, since only whether there is a match counts); anchors `^` (start of the value) and `$`
 * (end of the value). Refused: back-references, lookaround, `\b`, inline flags, named groups,
 * and anything else not listed.
 */

const REPEAT_MAX = 1000;

/** Inclusive code-point ranges, sorted and disjoint. */
export type Ranges = readonly number[];

/** The parsed pattern, which linear-regex.ts compiles. */
export type Syntax =
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

/** A pattern outside the syntax; its message says where. */
export class PatternError extends Error {}

/** The syntax tree of `pattern`; throws PatternError. */
export function parsePattern(pattern: string): Syntax {
  return new Parser(pattern).parse();
}

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
