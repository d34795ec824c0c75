/**
 * Regular expressions of the `matches` comparer, run in linear time.
 *
 * The host's RegExp backtracks, so a pattern such as `(a+)+$` can stall a process on a short
 * input. Patterns are therefore compiled here into an automaton and run by simulating all its
 * states at once (Thompson's construction): the time is proportional to the input's length
 * times the pattern's size, whatever the pattern and the input. Pure code, so it runs in the SDK
 * and the browser as in the server.
 *
 * The syntax is regex-syntax.ts's (a subset of JavaScript's; its parser refuses the rest). A
 * pattern matches a value when it matches some part of it; anchor it with `^...$` to match the
 * whole value. Refused besides: patterns over PATTERN_MAX_LENGTH characters and patterns whose
 * automaton exceeds PROGRAM_MAX_SIZE states.
 */

import { PatternError, parsePattern, type Ranges, type Syntax } from './regex-syntax.js';

export const PATTERN_MAX_LENGTH = 500;
const PROGRAM_MAX_SIZE = 20_000;

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
    const tree = parsePattern(pattern);
    const compiler = new Compiler();
    compiler.compile(tree);
    compiler.program.push({ op: I_MATCH, ranges: [], x: -1, y: -1 });
    return { ok: true, regex: new LinearRegex(compiler.program) };
  } catch (e) {
    if (e instanceof PatternError) return { ok: false, reason: e.message };
    throw e;
  }
}
