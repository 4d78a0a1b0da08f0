// A node's control gate (ARCHITECTURE "Control gates and a clock that can stop"): the runner
// reads `free` before each message and goes straight on when it is true, so a run nobody
// steers pays one boolean check per message; everything else here is the slow path.

/**
 * What holds a node: the run's pause, the node's own pause, or a breakpoint it reached. A step
 * lets one message through whatever holds the node; skip is kept here too, so that the runner
 * has a single flag to check.
 */
export class NodeGate {
  /** Nothing closes the gate: no pause and no breakpoint. */
  open = true;
  /** Open, not skipping and not in a step: the runner takes the message without looking further. */
  free = true;
  readonly index: number;
  readonly #changed: (gate: NodeGate) => void;
  #runPaused = false;
  #paused = false;
  #breakpoint = false;
  #skipped = false;
  /** The waiting message reached the breakpoint: it stays until a resume or a step. */
  #atBreakpoint = false;
  /** Passes a step granted while no message was waiting here; they lapse when the gate opens. */
  #steps = 0;
  /** Passed by a step and still working on that one message. */
  #stepping = false;
  /** The step was given to work already under way in the plugin (`stepWork`). */
  #workStep = false;
  /** Set while the node's task waits here. */
  #release: (() => void) | undefined;

  /** `changed` is told after every change, so the run can show it and freeze the node's clock. */
  constructor(index: number, changed: (gate: NodeGate) => void) {
    this.index = index;
    this.#changed = changed;
  }

  get runPaused(): boolean {
    return this.#runPaused;
  }

  get paused(): boolean {
    return this.#paused;
  }

  get breakpoint(): boolean {
    return this.#breakpoint;
  }

  get skipped(): boolean {
    return this.#skipped;
  }

  get atBreakpoint(): boolean {
    return this.#atBreakpoint;
  }

  get stepping(): boolean {
    return this.#stepping;
  }

  /** The node's task waits here (a processor holding its next message, a source before asking). */
  get waiting(): boolean {
    return this.#release !== undefined;
  }

  setRunPaused(paused: boolean): void {
    if (this.#runPaused === paused) return;
    this.#runPaused = paused;
    this.#update();
  }

  /** The run resumes: its pause ends and a message held at a breakpoint goes on. */
  resumeRun(): void {
    if (!this.#runPaused && !this.#atBreakpoint) return;
    this.#runPaused = false;
    this.#atBreakpoint = false;
    this.#update();
  }

  setPaused(paused: boolean): void {
    if (this.#paused === paused) return;
    this.#paused = paused;
    this.#update();
  }

  /** The node resumes: its own pause ends and a message held at its breakpoint goes on. */
  resume(): void {
    if (!this.#paused && !this.#atBreakpoint) return;
    this.#paused = false;
    this.#atBreakpoint = false;
    this.#update();
  }

  /** Removing a breakpoint also lets go of the message it holds. */
  setBreakpoint(breakpoint: boolean): void {
    if (this.#breakpoint === breakpoint) return;
    this.#breakpoint = breakpoint;
    if (!breakpoint) this.#atBreakpoint = false;
    this.#update();
  }

  setSkipped(skipped: boolean): void {
    if (this.#skipped === skipped) return;
    this.#skipped = skipped;
    this.#update();
  }

  /**
   * Lets exactly one message through a closed gate: the one waiting here now, or else the
   * next one to arrive. False when the gate is open: nothing holds the node.
   */
  step(): boolean {
    if (this.open) return false;
    if (this.#release === undefined) this.#steps++;
    else this.#pass(true);
    this.#update();
    return true;
  }

  /**
   * Lets the work the node already has under way inside its plugin finish while the gate is
   * closed: the node's clock runs until `workDone`.
   */
  stepWork(): void {
    this.#workStep = true;
    this.#stepping = true;
    this.#update();
  }

  /** The work under way is done: a step given by `stepWork` ends. */
  workDone(): void {
    if (this.#workStep) this.endStep();
  }

  /**
   * The node's task reached the closed gate. Undefined when it may go on at once (a step
   * granted beforehand); otherwise a promise that settles when it may go on, or when the
   * node ended (the task then checks for that itself).
   */
  arrive(): Promise<void> | undefined {
    if (this.#breakpoint) this.#atBreakpoint = true;
    if (this.#steps > 0) {
      this.#steps--;
      this.#atBreakpoint = false;
      this.#stepping = true;
      this.#update();
      return undefined;
    }
    if (this.#mayGo()) {
      this.#atBreakpoint = false;
      return undefined;
    }
    return new Promise<void>((resolve) => {
      this.#release = resolve;
      this.#changed(this);
    });
  }

  /**
   * The node's task is about to take a message (or, for a source, to ask for one), on the
   * slow path (`free` is false): the step that covered the last message ends, and while the
   * gate is closed the answer is a promise that settles when the task may go on. The task
   * checks afterwards whether the node ended meanwhile.
   */
  enter(): Promise<void> | undefined {
    this.endStep();
    return this.open ? undefined : this.arrive();
  }

  /** The stepped message has been dealt with: the gate holds the node again. */
  endStep(): void {
    if (!this.#stepping) return;
    this.#stepping = false;
    this.#workStep = false;
    this.#update();
  }

  /** The node ended: a task waiting here goes on, to find that out. */
  wake(): void {
    const release = this.#release;
    this.#release = undefined;
    release?.();
  }

  #mayGo(): boolean {
    return !this.#runPaused && !this.#paused && !this.#atBreakpoint;
  }

  #pass(byStep: boolean): void {
    const release = this.#release;
    this.#release = undefined;
    this.#atBreakpoint = false;
    if (byStep) this.#stepping = true;
    release?.();
  }

  #update(): void {
    this.open = !this.#runPaused && !this.#paused && !this.#breakpoint;
    if (this.open) this.#steps = 0;
    this.free = this.open && !this.#skipped && !this.#stepping;
    if (this.#release !== undefined && this.#mayGo()) this.#pass(false);
    this.#changed(this);
  }
}
