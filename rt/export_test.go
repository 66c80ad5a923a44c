package rt

// WorkerDelay lets the tests start workers at once.
var WorkerDelay = &workerDelay

// TreeReport lets the tests see which process ran how much of a split
// search.
var TreeReport = &treeReport
