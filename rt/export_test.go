package rt

// WorkerDelay lets the tests start workers at once.
var WorkerDelay = &workerDelay
