package main

import (
	"fmt"
	"io"
	"os"
	"time"

	"github.com/schollz/progressbar/v3"
	"golang.org/x/term"
)

// progress shows how far long work has come (modules of a batch, compile
// units of one large file): done of total, the rate and the time left, on
// one line of standard error redrawn in place, when that is a terminal
// and -q was not given. Elsewhere it draws nothing, so that logs and
// pipes get only the messages and the summary. The bar is
// schollz/progressbar.
type progress struct {
	w    io.Writer
	bar  *progressbar.ProgressBar // nil: nothing is drawn
	lazy bool                     // the bar is made at the first step (unitProgress)
}

// newProgress returns the progress of total steps of what (e.g.
// "modules"), drawn on w when w is a terminal and quiet is false.
func newProgress(w io.Writer, total int, what string, quiet bool) *progress {
	p := &progress{w: w}
	if quiet || total <= 0 || !isTerminal(w) {
		return p
	}
	p.bar = progressbar.NewOptions(total,
		progressbar.OptionSetWriter(w),
		progressbar.OptionSetDescription(what),
		progressbar.OptionSetWidth(30),
		progressbar.OptionShowCount(),
		progressbar.OptionShowIts(),
		progressbar.OptionSetItsString(what),
		progressbar.OptionSetPredictTime(true),
		progressbar.OptionThrottle(100*time.Millisecond),
		progressbar.OptionClearOnFinish(),
		progressbar.OptionUseANSICodes(true),
	)
	return p
}

// unitProgress returns the progress of one file's compile units, drawn
// on w (see newProgress): its units method is encode.Options.Progress.
// The total is known only when the walk starts, so the bar is made then.
func unitProgress(w io.Writer) *progress {
	return &progress{w: w, lazy: true}
}

// units is encode.Options.Progress: done of total compile units merged.
func (p *progress) units(done, total int) {
	if p.lazy {
		p.lazy = false
		*p = *newProgress(p.w, total, "units", encodeOpts.quiet)
	}
	p.set(done)
}

// isTerminal reports whether w is a terminal.
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}

// set records that done steps are done; callers serialize calls.
func (p *progress) set(done int) {
	if p.bar != nil {
		p.bar.Set(done)
	}
}

// step records one more step done; callers serialize calls.
func (p *progress) step() {
	if p.bar != nil {
		p.bar.Add(1)
	}
}

// message prints a line, above the bar when there is one.
func (p *progress) message(msg string) {
	if p.bar != nil {
		p.bar.Clear()
	}
	fmt.Fprintln(p.w, msg)
}

// done removes the bar.
func (p *progress) done() {
	if p.bar != nil {
		p.bar.Finish()
		p.bar.Clear()
	}
}
