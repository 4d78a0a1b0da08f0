// Generated from the API description (GET /v3/api-docs) by `npm run docs`: do not edit.
// The contract test fails while this file differs from what the server describes.

export interface paths {
    "/api/sessions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List sessions
         * @description Every session the key may reach.
         *
         *     Required role: VIEWER.
         */
        get: operations["listSessions"];
        put?: never;
        /**
         * Create a session
         * @description Creates a session, with the workflows given saved as their version 1.
         *
         *     Required role: ADMIN.
         */
        post: operations["createSession"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/sessions/{sessionId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Read a session
         * @description Required role: VIEWER.
         */
        get: operations["getSession"];
        put?: never;
        post?: never;
        /**
         * Delete a session
         * @description Deletes the session and its workflows; refused while it has runs going.
         *
         *     Required role: ADMIN.
         */
        delete: operations["deleteSession"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/sessions/validate": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Check a draft workflow
         * @description Checks a workflow definition without saving it: `valid=false` with field errors for a bad draft, and the output ports of every node so an editor can offer the right edge ports.
         *
         *     Required role: ADMIN.
         */
        post: operations["validateWorkflow"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/sessions/{sessionId}/workflows": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List the workflows of a session
         * @description Required role: VIEWER.
         */
        get: operations["listWorkflows"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/sessions/{sessionId}/workflows/{workflowId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Read a workflow
         * @description The definition of its current version.
         *
         *     Required role: VIEWER.
         */
        get: operations["getWorkflow"];
        /**
         * Create or change a workflow
         * @description Saves the definition as a new version (201 when it creates the workflow, 200 when it replaces it), with the version note from `note` if given. The newest 20 versions are kept.
         *
         *     Required role: ADMIN.
         */
        put: operations["saveWorkflow"];
        post?: never;
        /**
         * Delete a workflow
         * @description Required role: ADMIN.
         */
        delete: operations["deleteWorkflow"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/sessions/{sessionId}/workflows/{workflowId}/layout": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Read a workflow's layout
         * @description Where an editor placed the nodes of the current version; empty positions when none was saved. A layout is not part of the definition: saving one makes no version.
         *
         *     Required role: VIEWER.
         */
        get: operations["getWorkflowLayout"];
        /**
         * Replace a workflow's layout
         * @description Replaces the positions, making no new version. Refused whole with 400 and an error per entry (`positions.<nodeId>`) when an entry names a node the current version does not have, or when there are more than 500 entries. A new version keeps the positions of the nodes it still has.
         *
         *     Required role: ADMIN.
         */
        put: operations["saveWorkflowLayout"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/sessions/{sessionId}/workflows/{workflowId}/graph": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Read a workflow as a graph
         * @description Nodes with their kind and level, edges, output ports and levels.
         *
         *     Required role: VIEWER.
         */
        get: operations["getWorkflowGraph"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/sessions/{sessionId}/workflows/{workflowId}/versions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List the saved versions of a workflow
         * @description Required role: VIEWER.
         */
        get: operations["listWorkflowVersions"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/sessions/{sessionId}/workflows/{workflowId}/versions/diff": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Compare two versions
         * @description Required role: VIEWER.
         */
        get: operations["diffWorkflowVersions"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/sessions/{sessionId}/workflows/{workflowId}/versions/{version}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Read one version
         * @description Required role: VIEWER.
         */
        get: operations["getWorkflowVersion"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/sessions/{sessionId}/workflows/{workflowId}/versions/{version}/rollback": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Roll back to a version
         * @description Saves the definition of that version as a new current version, noted `Rollback to version N`, followed by `: <note>` when `note` is given.
         *
         *     Required role: ADMIN.
         */
        post: operations["rollbackWorkflow"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/plugins": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List plugin types
         * @description Required role: VIEWER.
         */
        get: operations["listPlugins"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/plugins/{type}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Describe a plugin type
         * @description Required role: VIEWER.
         */
        get: operations["getPlugin"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/workers": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List connected workers
         * @description Remote workers, their pools and free slots.
         *
         *     Required role: VIEWER.
         */
        get: operations["listWorkers"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/workflow/start": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Start a workflow
         * @description Starts a run of the current version of the workflow, or queues it when no slot is free. An `Idempotency-Key` header makes a repeated start within its window (10 minutes by default) answer the first start’s execution and start nothing: send the same key when retrying after a 429 or 503.
         *
         *     Required role: OPERATOR.
         */
        post: operations["startWorkflow"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/workflow/{sessionId}/start": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Start a workflow of a session
         * @description For keys limited to sessions: the session is named in the path. Starts a run of the current version of the workflow, or queues it when no slot is free. An `Idempotency-Key` header makes a repeated start within its window (10 minutes by default) answer the first start’s execution and start nothing: send the same key when retrying after a 429 or 503.
         *
         *     Required role: OPERATOR.
         */
        post: operations["startSessionWorkflow"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/executions/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Read an execution
         * @description Required role: VIEWER.
         */
        get: operations["getExecution"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/executions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Search executions
         * @description Executions newest first, filtered by session, workflow, status and creation time, one page at a time: pass the `nextCursor` of a page as `cursor` to read the next one.
         *
         *     Required role: VIEWER.
         */
        get: operations["searchExecutions"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/executions/{id}/priority": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Change the priority of a waiting execution
         * @description Only while it waits for a slot; higher runs first. Otherwise 400.
         *
         *     Required role: OPERATOR.
         */
        post: operations["setExecutionPriority"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/executions/{id}/stop": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Stop an execution
         * @description Stops a run, or takes a start waiting for a slot out of the queue; 409 once it has ended.
         *
         *     Required role: OPERATOR.
         */
        post: operations["stopExecution"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/scheduler/limits": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Read the admission limits
         * @description Required role: VIEWER.
         */
        get: operations["getSchedulerLimits"];
        put?: never;
        /**
         * Change the admission limits
         * @description Changes the limits given in the query and keeps the others, without a restart; `off` turns a limit off. Queued starts that now fit begin. The change is applied again after a server restart.
         *
         *     Required role: ADMIN.
         */
        post: operations["setSchedulerLimits"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/scheduler/queue": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List the starts waiting for a slot
         * @description The starts waiting for a slot in the order the queue takes them (higher priority, then the session with the fewest running executions, then arrival), each with the limits that hold it back. Change a waiting start's place with POST /api/executions/{id}/priority.
         *
         *     Required role: VIEWER.
         */
        get: operations["getSchedulerQueue"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/executions/{id}/results": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Read the results of an execution
         * @description The messages its terminal nodes received, oldest first.
         *
         *     Required role: VIEWER.
         */
        get: operations["listExecutionResults"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/executions/{id}/logs": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Read the log lines of an execution
         * @description Lines kept for the run, oldest first; optionally of one node, after a `seq`, at most `limit` of them.
         *
         *     Required role: VIEWER.
         */
        get: operations["listExecutionLogs"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/workflow/{sessionId}/status/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Read the progress of an execution
         * @description The execution with counts of its nodes by status and of what it kept.
         *
         *     Required role: VIEWER.
         */
        get: operations["getExecutionProgress"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/workflow/{sessionId}/history": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List the executions of a session
         * @description Newest first, up to `limit`, optionally of one workflow or status.
         *
         *     Required role: VIEWER.
         */
        get: operations["listSessionExecutions"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/control/audit": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List recent control commands
         * @description Every control command, applied or refused, with its sender; newest first. Reads and starts are not audited.
         *
         *     Required role: VIEWER.
         */
        get: operations["listControlAudit"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/control/supervisors": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List supervisors
         * @description Supervisors receive events and may review control commands.
         *
         *     Required role: VIEWER.
         */
        get: operations["listSupervisors"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/control/status": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Read the control bus status
         * @description Required role: VIEWER.
         */
        get: operations["getControlBusStatus"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/executions/{id}/pause": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Pause a run
         * @description Freezes every clock of the run, so a pause never causes a timeout, and holds every node before its next message; work already inside a node goes on. A start still waiting for a slot has its queue time frozen. The command is audited, applied or refused; a supervisor may refuse it (403).
         *
         *     Required role: OPERATOR.
         */
        post: operations["pauseExecution"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/executions/{id}/resume": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Resume a run
         * @description Ends a pause and lets every message held at a breakpoint go on. The command is audited, applied or refused; a supervisor may refuse it (403).
         *
         *     Required role: OPERATOR.
         */
        post: operations["resumeExecution"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/executions/{id}/step": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Step a paused run
         * @description Moves one message on in a paused run, in the first node (in topological order) that holds one; 409 when the run is not paused or no message can move. The command is audited, applied or refused; a supervisor may refuse it (403).
         *
         *     Required role: OPERATOR.
         */
        post: operations["stepExecution"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/executions/{id}/nodes/{nodeId}/pause": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Pause a node
         * @description Holds the node before its next message and freezes its clock; the rest of the run goes on. 404 for an unknown node or one that has ended, 409 when the run is not going. A body with approval fields (`approved`, `messageId`, `payload`, `comment`) is refused with 403: they belong to the signal call. The command is audited, applied or refused; a supervisor may refuse it (403).
         *
         *     Required role: OPERATOR.
         */
        post: operations["pauseNode"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/executions/{id}/nodes/{nodeId}/resume": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Resume a node
         * @description Ends the node's own pause and lets a message held at its breakpoint go on. 404 for an unknown node or one that has ended, 409 when the run is not going. A body with approval fields (`approved`, `messageId`, `payload`, `comment`) is refused with 403: they belong to the signal call. The command is audited, applied or refused; a supervisor may refuse it (403).
         *
         *     Required role: OPERATOR.
         */
        post: operations["resumeNode"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/executions/{id}/nodes/{nodeId}/step": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Step a node
         * @description Lets one message through a held node (paused, in a paused run, or at a breakpoint): the one waiting now, or else the next to arrive. 404 for an unknown node or one that has ended, 409 when the run is not going. A body with approval fields (`approved`, `messageId`, `payload`, `comment`) is refused with 403: they belong to the signal call. The command is audited, applied or refused; a supervisor may refuse it (403).
         *
         *     Required role: OPERATOR.
         */
        post: operations["stepNode"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/executions/{id}/nodes/{nodeId}/stop": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Stop a node
         * @description Ends the node `STOPPED` at once; under the default trigger rule its children end `UPSTREAM_FAILED`. 404 for an unknown node or one that has ended, 409 when the run is not going. A body with approval fields (`approved`, `messageId`, `payload`, `comment`) is refused with 403: they belong to the signal call. The command is audited, applied or refused; a supervisor may refuse it (403).
         *
         *     Required role: OPERATOR.
         */
        post: operations["stopNode"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/executions/{id}/nodes/{nodeId}/skip": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Skip a node
         * @description Passes each message on unchanged on port `out` without running the node, until it is unskipped. Processors only: 400 for a trigger or a terminal. 404 for an unknown node or one that has ended, 409 when the run is not going. A body with approval fields (`approved`, `messageId`, `payload`, `comment`) is refused with 403: they belong to the signal call. The command is audited, applied or refused; a supervisor may refuse it (403).
         *
         *     Required role: OPERATOR.
         */
        post: operations["skipNode"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/executions/{id}/nodes/{nodeId}/unskip": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Unskip a node
         * @description Runs the node on each message again. Processors only: 400 for a trigger or a terminal. 404 for an unknown node or one that has ended, 409 when the run is not going. A body with approval fields (`approved`, `messageId`, `payload`, `comment`) is refused with 403: they belong to the signal call. The command is audited, applied or refused; a supervisor may refuse it (403).
         *
         *     Required role: OPERATOR.
         */
        post: operations["unskipNode"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/executions/{id}/nodes/{nodeId}/signal": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Approve or reject a waiting message
         * @description Answers the wait of a `WAIT_FOR_SIGNAL` node: for `messageId` when given, else for the message it has waited on longest. The message goes on on port `approved` or `rejected`, with `payload` in place of its own when given. 409 when the node is not waiting for a signal (for that message). The command is audited, applied or refused; a supervisor may refuse it (403).
         *
         *     Required role: OPERATOR.
         */
        post: operations["signalNode"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/executions/{id}/approvals": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List the pending approvals of a run
         * @description Pending approvals live in memory: they disappear after a restart or a takeover.
         *
         *     Required role: VIEWER.
         */
        get: operations["listExecutionApprovals"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/sessions/{sessionId}/approvals": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List the pending approvals of a session
         * @description Of every run of the session; an unknown session has none.
         *
         *     Required role: VIEWER.
         */
        get: operations["listSessionApprovals"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/executions/{id}/breakpoints": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Read the breakpoints of a run
         * @description A run that has ended or still waits for a slot has none.
         *
         *     Required role: VIEWER.
         */
        get: operations["getBreakpoints"];
        /**
         * Replace the breakpoints of a run
         * @description Each node named holds every message before taking it, until the run or the node is resumed or stepped; the others hold none. 404 for an unknown node, 409 when the run is not going. The command is audited, applied or refused; a supervisor may refuse it (403).
         *
         *     Required role: OPERATOR.
         */
        put: operations["setBreakpoints"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/executions/{id}/restart": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Restart an execution
         * @description Runs the whole workflow again, with the same start payload, as a new execution that takes a slot like any start; the original is stopped if it is still going. Runs the same version, or the saved `version` of the body when its triggers are the same as in the run (409 otherwise, naming the node). 409 while another restart of it is under way.
         *
         *     Required role: OPERATOR.
         */
        post: operations["restartExecution"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/executions/{id}/restart/{nodeId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Restart an execution from a node
         * @description A new execution that runs the node and every node after it; the nodes feeding them replay the output they recorded, and branches that do not lead through the node are left out. 400 when a feeding node is still producing output or its recorded output is incomplete. The body may edit what the node received (`inputs`: 400 naming a message it did not receive) and name a saved `version` to run when the graph above the node is unchanged (409 naming the node that differs).
         *
         *     Required role: OPERATOR.
         */
        post: operations["restartExecutionFromNode"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/executions/{id}/nodes/{nodeId}/retry": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Retry a failed node
         * @description A restart from a node that ended FAILURE or TIMED_OUT; 400 for a node that did not fail.
         *
         *     Required role: OPERATOR.
         */
        post: operations["retryExecutionNode"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/executions/{id}/recover": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Recover an aborted execution
         * @description Resumes a run a server restart cut off (ABORTED) as a new execution: finished nodes replay their checkpoints, the others run. Needs a durable execution log and checkpoint store and an unchanged workflow; a run is recovered once (409 otherwise).
         *
         *     Required role: OPERATOR.
         */
        post: operations["recoverExecution"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/executions/{id}/replay-check": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Check a version against a recorded run
         * @description Runs the run's recorded inputs through a saved `version` (or an unsaved draft `definition`) and compares, per node, the output with what the run recorded. Nothing outside is called: nodes of a type that is not pure answer each input from their recorded output for it, and an input they have no recording for is a difference. Nothing is saved: no execution, checkpoints, results, events or audit entry. 404 for a version not saved; 409 when the checkpoints it needs were not kept.
         *
         *     Required role: OPERATOR.
         */
        post: operations["replayCheckExecution"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/executions/{id}/checkpoints": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Read the checkpoints of an execution
         * @description Per node: messages recorded, bytes held, and whether a replay can use them.
         *
         *     Required role: VIEWER.
         */
        get: operations["getExecutionCheckpoints"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/executions/{id}/nodes/{nodeId}/messages": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Read what a node received or sent
         * @description A node's recorded messages from the checkpoints, oldest first, a page at a time (`limit`, 1 to 1000, default 100; `cursor`: the `nextCursor` of the page before). `direction=out` (the default): what the node sent, with the port each left on. `direction=in`: what it received, its parents' recorded output on the edges into it, parent by parent in the order of the edges. 409 when the checkpoints were not kept (the run's version is gone, an output went over the checkpoint caps or never finished); 404 for a node the run's workflow does not have.
         *
         *     Required role: VIEWER.
         */
        get: operations["listNodeMessages"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/sessions/{sessionId}/workflows/{workflowId}/activate": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Keep a workflow always on
         * @description The leading server keeps one run of the workflow going, with no run deadline: it starts one now (or follows the one under way), again whenever it ends, and after a restart, a crash or a takeover (docs/always-on.md).
         *
         *     Required role: ADMIN.
         */
        post: operations["activateWorkflow"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/sessions/{sessionId}/workflows/{workflowId}/deactivate": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Stop keeping a workflow on
         * @description No run is started again, and the run kept going is stopped (audited as a STOP).
         *
         *     Required role: ADMIN.
         */
        post: operations["deactivateWorkflow"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/dead-letters": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List dead letters
         * @description Messages nodes with `onError: DEAD_LETTER` gave up on, newest first, filtered by session, workflow, node and execution, one page at a time: pass the `nextCursor` of a page as `cursor` to read the next one. A key limited to sessions sees the letters of its sessions only.
         *
         *     Required role: VIEWER.
         */
        get: operations["listDeadLetters"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/dead-letters/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Read a dead letter
         * @description Required role: VIEWER.
         */
        get: operations["getDeadLetter"];
        put?: never;
        post?: never;
        /**
         * Delete a dead letter
         * @description Required role: OPERATOR.
         */
        delete: operations["deleteDeadLetter"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/dead-letters/{id}/redrive": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Redrive a dead letter
         * @description Runs the letter's node and what follows it again on the letter's message alone (or on `payload` when given), as a restart from the node with that input: a new execution. The letter is marked with it. 409 while the letter's run is still going; the restart's own errors where the checkpoints it needs were not kept.
         *
         *     Required role: OPERATOR.
         */
        post: operations["redriveDeadLetter"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/hooks/{sessionId}/{workflowId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Call the hook of a workflow
         * @description Starts a saved workflow that has a WEBHOOK_TRIGGER, with the JSON body (if any) as the payload. No API key is needed. When the trigger has a `secret`, the call sends it as `X-Hook-Secret`, or signs the body: `X-Hook-Signature: sha256=<hex HMAC-SHA256 of the body>`; otherwise `401`. With `respond: async` (the default) the answer is `202` with the execution; with `respond: sync` the call waits for the first terminal message and answers `200` with its payload as `data`, `504` when none comes within `timeoutSeconds` (the run goes on), `502` when the run fails first. `X-Execution-ID` names the execution. `Idempotency-Key` works as on a start.
         *
         *     Required role: none (open).
         */
        post: operations["callHook"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/mcp": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Follow the notifications of an MCP session
         * @description The stream of notifications of an MCP session that belong to no request (resource updates). 405 without a session, 404 for a session that is not there or belongs to another key. Any valid key gets in; each tool, resource and prompt checks its role (VIEWER, OPERATOR or ADMIN) and the sessions of the key.
         *
         *     Required role: per tool.
         */
        get: operations["streamToolNotifications"];
        put?: never;
        /**
         * Call the tool endpoint
         * @description MCP over Streamable HTTP: a JSON-RPC 2.0 request in, its JSON-RPC response out (as JSON, or as server-sent events within an MCP session). `initialize` opens a session (the `Mcp-Session-Id` header of the answer); `tools/list` describes every tool. Any valid key gets in; each tool, resource and prompt checks its role (VIEWER, OPERATOR or ADMIN) and the sessions of the key.
         *
         *     Required role: per tool.
         */
        post: operations["callTool"];
        /**
         * End an MCP session
         * @description Ends an MCP session. 405 without a session, 404 for a session that is not there or belongs to another key. Any valid key gets in; each tool, resource and prompt checks its role (VIEWER, OPERATOR or ADMIN) and the sessions of the key.
         *
         *     Required role: per tool.
         */
        delete: operations["endToolSession"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/events": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Follow the event stream
         * @description Every event of the server, live, narrowed by the filters given: `sessionId`, `executionId`, and `kinds`, a comma-separated list of kinds where `family.*` matches a family (`node.*`). Kinds: `execution.queued|started|paused|resumed|completed|failed|stopped|timed_out|aborted`, `node.started|waiting|paused|resumed|completed|failed|timed_out|skipped|upstream_failed`, `result`, `log`, `approval.requested|answered|timed_out`, `control.applied|refused`, `scheduler.limits`. Each event is an SSE frame: `id:` a per-stream increasing integer, `event:` its kind, `data:` a JSON object `{ kind, timestamp, executionId, sessionId, workflowId, nodeId?, ... }`. A `:` comment line is sent every 15 s to keep the connection open. A client that reconnects with the `Last-Event-ID` header gets the events after that id; a restart or takeover of the server drops every open stream. Live events are best effort: read the final state from the status or result calls.
         *
         *     Required role: VIEWER.
         */
        get: operations["streamEvents"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/sessions/{sessionId}/executions/{id}/logs/entries": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Follow a run's log entries
         * @description The run's stored structured log entries first, then live ones, as events of kind `log` whose `data` is the entry (`seq, timestamp, executionId, nodeId, level, message, fields`) and whose `id` is its `seq`. The stream ends when the run reaches a terminal status. 404 for an unknown run or one of another session. Each event is an SSE frame: `id:` a per-stream increasing integer, `event:` its kind, `data:` a JSON object `{ kind, timestamp, executionId, sessionId, workflowId, nodeId?, ... }`. A `:` comment line is sent every 15 s to keep the connection open. A client that reconnects with the `Last-Event-ID` header gets the events after that id; a restart or takeover of the server drops every open stream. Live events are best effort: read the final state from the status or result calls.
         *
         *     Required role: VIEWER.
         */
        get: operations["streamExecutionLogs"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/workflow/{sessionId}/status/{id}/stream": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Follow a run's progress
         * @description The run's state events (`execution.*` and `node.*`), each with `progress`: the run's status, nodes finished and by status, and its execution record. A late client catches up from the progress history (5 minutes, 200 events per run); when nothing is kept, the stream opens with the event of the run's current status. The stream ends when the run reaches a terminal status. With `flow=true`, while the run goes, an event of kind `flow` about once a second and on connecting: every node's status and counts, per edge the messages queued in the child's input, its capacity, whether the parent waits for room and messages per second, and the node that holds the others back; it has no `id:` line, so resuming with `Last-Event-ID` is unchanged. 404 for an unknown run or one of another session. Each event is an SSE frame: `id:` a per-stream increasing integer, `event:` its kind, `data:` a JSON object `{ kind, timestamp, executionId, sessionId, workflowId, nodeId?, ... }`. A `:` comment line is sent every 15 s to keep the connection open. A client that reconnects with the `Last-Event-ID` header gets the events after that id; a restart or takeover of the server drops every open stream. Live events are best effort: read the final state from the status or result calls.
         *
         *     Required role: VIEWER.
         */
        get: operations["streamExecutionProgress"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/actuator/health": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Read health
         * @description Liveness and health; needs no key. The components and their details are shown only to an unrestricted ADMIN key, or to everyone when no key is set. While no key is set, a request from a host or origin that is not allowed is refused with 403.
         *
         *     Required role: none (open).
         */
        get: operations["getHealth"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/actuator": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List management endpoints
         * @description Required role: ADMIN.
         */
        get: operations["listManagementEndpoints"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/actuator/info": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Read build information
         * @description Required role: ADMIN.
         */
        get: operations["getApplicationInfo"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/actuator/prometheus": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Scrape meters
         * @description Every meter in the Prometheus text format.
         *
         *     Required role: ADMIN.
         */
        get: operations["scrapeMeters"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/actuator/metrics": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List meters
         * @description Required role: ADMIN.
         */
        get: operations["listMeters"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/actuator/metrics/{name}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Read one meter
         * @description Its measurements, over the samples whose tags match every `tag=key:value` given, and the values each tag has taken. 404 for an unknown meter.
         *
         *     Required role: ADMIN.
         */
        get: operations["getMeter"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/actuator/loggers": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List loggers and their levels
         * @description Required role: ADMIN.
         */
        get: operations["listLoggers"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/actuator/loggers/{name}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Read a logger's level
         * @description Loggers: `ROOT`, `app` and `engine`.
         *
         *     Required role: ADMIN.
         */
        get: operations["getLogger"];
        put?: never;
        /**
         * Set a logger's level
         * @description Sets the level at once, without a restart; `configuredLevel: null` puts back the level of the profile.
         *
         *     Required role: ADMIN.
         */
        post: operations["setLoggerLevel"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/actuator/mappings": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List routes
         * @description Required role: ADMIN.
         */
        get: operations["listRoutes"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/actuator/threaddump": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Read the state of the event loop
         * @description Node runs JavaScript on one thread: its equivalent of a thread dump is the event loop delay and utilization, the resources keeping the process alive, memory and parts of the diagnostic report.
         *
         *     Required role: ADMIN.
         */
        get: operations["getThreadDump"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export type webhooks = Record<string, never>;
export interface components {
    schemas: {
        InputEditInput: {
            /** @description A message the node received (`listNodeMessages` with `direction=in`); absent: the payload is an added message */
            messageId?: string;
            /** @description The new payload */
            payload: unknown;
        };
        RestartBodyInput: {
            /** @description A saved version of the workflow to run instead of the one the run used; the graph above the restart must be unchanged (409 naming the node that differs) */
            version?: number;
        };
        RestartFromNodeBodyInput: {
            /** @description Edits of what the node received: a `messageId` with its new payload, or a payload alone to add a message; the node and every node after it run on them (400 naming an unknown message id) */
            inputs?: components["schemas"]["InputEditInput"][];
            /** @description A saved version of the workflow to run instead of the one the run used; the graph above the restart must be unchanged (409 naming the node that differs) */
            version?: number;
        };
        ReplayCheckBodyInput: {
            /** @description A saved version of the workflow to check against the run (404 when not saved) */
            version?: number;
            /** @description An unsaved draft of the workflow to check instead of a saved version (400 when it does not validate); its workflowId may be left out */
            definition?: {
                workflowId?: string;
                /** @default  */
                description?: string;
                nodes: {
                    nodeId: string;
                    type: string;
                    config?: {
                        [key: string]: unknown;
                    };
                }[];
                /** @default [] */
                edges?: {
                    source: string;
                    target: string;
                    sourcePort?: string;
                }[];
            };
        };
        RedriveBodyInput: {
            /** @description The payload to run the node on; the letter's own when left out */
            payload?: unknown;
        };
        WorkflowDefinitionInput: {
            workflowId: string;
            /** @default  */
            description?: string;
            nodes: {
                nodeId: string;
                type: string;
                config?: {
                    [key: string]: unknown;
                };
            }[];
            /** @default [] */
            edges?: {
                source: string;
                target: string;
                sourcePort?: string;
            }[];
        };
        FieldError: {
            /** @description The field, as a path (`nodes[0].config.x`) */
            field: string;
            message: string;
        };
        /** @description Every error answer */
        ErrorEnvelope: {
            /** Format: date-time */
            timestamp: string;
            status: number;
            /** @description The HTTP reason phrase of `status` */
            error: string;
            message: string;
            /** @description The request path, without its query */
            path: string;
            /** @description Only when the problem is tied to fields */
            errors?: components["schemas"]["FieldError"][];
        };
        /** @enum {string} */
        ExecutionStatus: "QUEUED" | "RUNNING" | "PAUSED" | "COMPLETED" | "FAILED" | "STOPPED" | "TIMED_OUT" | "ABORTED";
        /** @enum {string} */
        NodeStatus: "PENDING" | "RUNNING" | "WAITING" | "PAUSED" | "COMPLETED" | "FAILURE" | "TIMED_OUT" | "UPSTREAM_FAILED" | "SKIPPED" | "STOPPED" | "CANCELLED";
        ExecutionNode: {
            status: components["schemas"]["NodeStatus"];
            /** Format: date-time */
            startedAt: string | null;
            /** Format: date-time */
            endedAt: string | null;
            messagesIn: number;
            messagesOut: number;
            /** @description Messages attempted again after a retryable failure */
            retries: number;
            /** @description Why it ended other than COMPLETED (the root cause of a failure) */
            error: string | null;
        };
        Execution: {
            executionId: string;
            sessionId: string;
            workflowId: string;
            /** @description The workflow version the run runs */
            workflowVersion: number;
            status: components["schemas"]["ExecutionStatus"];
            priority: number;
            /** Format: date-time */
            createdAt: string;
            /**
             * Format: date-time
             * @description Null while it waits for a slot
             */
            startedAt: string | null;
            /** Format: date-time */
            endedAt: string | null;
            /** @description Why it ended other than COMPLETED (the root cause of a failure) */
            error: string | null;
            /** @description The execution this one restarts (restart, from a node, retry) */
            restartOf: string | null;
            /** @description The aborted execution this one recovers */
            resumedFrom: string | null;
            /** @description The run that started this one as a sub-workflow */
            parentExecutionId: string | null;
            /** @description By node id; empty until the run starts */
            nodes: {
                [key: string]: components["schemas"]["ExecutionNode"];
            };
            /** @description OpenTelemetry trace id of the run; present when tracing is on */
            traceId?: string;
        };
        ExecutionProgress: {
            executionId: string;
            sessionId: string;
            workflowId: string;
            /** @description The workflow version the run runs */
            workflowVersion: number;
            status: components["schemas"]["ExecutionStatus"];
            priority: number;
            /** Format: date-time */
            createdAt: string;
            /**
             * Format: date-time
             * @description Null while it waits for a slot
             */
            startedAt: string | null;
            /** Format: date-time */
            endedAt: string | null;
            /** @description Why it ended other than COMPLETED (the root cause of a failure) */
            error: string | null;
            /** @description The execution this one restarts (restart, from a node, retry) */
            restartOf: string | null;
            /** @description The aborted execution this one recovers */
            resumedFrom: string | null;
            /** @description The run that started this one as a sub-workflow */
            parentExecutionId: string | null;
            /** @description By node id; empty until the run starts */
            nodes: {
                [key: string]: components["schemas"]["ExecutionNode"];
            };
            /** @description OpenTelemetry trace id of the run; present when tracing is on */
            traceId?: string;
            progress: {
                nodesTotal: number;
                nodesFinished: number;
                /** @description Nodes finished, in percent, rounded */
                percent: number;
                /** @description Nodes by status; a status no node has is left out */
                byStatus: {
                    [key: string]: number;
                };
                /** @description Result events kept for the run */
                results: number;
                /** @description Some results are no longer kept (bounds, or a server restart cut the run) */
                resultsNotKept: boolean;
                /** @description Some log lines are no longer kept */
                logsNotKept: boolean;
            };
        };
        /** @description An execution and its status when the call was answered */
        ExecutionState: {
            executionId: string;
            status: components["schemas"]["ExecutionStatus"];
        };
        ExecutionPage: {
            items: components["schemas"]["Execution"][];
            /** @description The `cursor` of the next page; null on the last page */
            nextCursor: string | null;
        };
        ResultEvent: {
            seq: number;
            /** Format: date-time */
            timestamp: string;
            /** @description The terminal node that received the message */
            nodeId: string;
            messageId: string;
            /** @description The payload of the message, any JSON */
            payload: unknown;
        };
        LogLine: {
            seq: number;
            /** Format: date-time */
            timestamp: string;
            executionId: string;
            nodeId: string;
            /** @enum {string} */
            level: "TRACE" | "DEBUG" | "INFO" | "WARN" | "ERROR";
            message: string;
            fields: {
                [key: string]: unknown;
            };
            /** @description OpenTelemetry trace id of the run; present when tracing is on */
            traceId?: string;
            /** @description OpenTelemetry span id of the node attempt that wrote the line; present when tracing is on and the line was written during an attempt */
            spanId?: string;
        };
        NodeMessagePage: {
            items: {
                messageId: string;
                /** @description The output port it left its node on */
                port: string;
                /** @description Any JSON */
                payload: unknown;
                /** @description The message headers; `attempt` counts from 1 */
                headers: {
                    attempt: number;
                } & {
                    [key: string]: unknown;
                };
            }[];
            /** @description Where the next page starts; null on the last */
            nextCursor: string | null;
        };
        ExecutionCheckpoints: {
            executionId: string;
            /**
             * @description Where checkpoints are kept; null when nothing is recorded
             * @enum {string|null}
             */
            store: "memory" | "spill" | "file" | "postgres" | null;
            nodes: {
                [key: string]: {
                    /** @description Messages recorded, also those not held */
                    messages: number;
                    /** @description Bytes of output held */
                    bytes: number;
                    /** @description The end marker exists and the whole output is held */
                    complete: boolean;
                    /** @description Output went over a cap and is not all held */
                    truncated: boolean;
                };
            };
        };
        PriorityChange: {
            executionId: string;
            priority: number;
        };
        NodeComparison: {
            nodeId: string;
            /** @description The replayed output equals the recorded output */
            same: boolean;
            /** @description Messages the node sent in the run */
            recorded: number;
            /** @description Messages it sent in the check */
            replayed: number;
            /** @description The first 5 messages that differ, by message id */
            differences: {
                messageId: string;
                /** @description The payload sent in the run; absent when none was */
                recorded?: unknown;
                /** @description The payload sent in the check; absent when none was */
                replayed?: unknown;
                /** @description Why nothing was replayed: an input a node with outside effects has no recording for */
                note?: string;
            }[];
        };
        ReplayCheck: {
            executionId: string;
            /** @description The version checked; null for a draft */
            version: number | null;
            /** @description How the check's run ended: COMPLETED, or FAILURE, TIMED_OUT (the check's time limit), ... */
            status: string;
            /** @description Why it ended other than COMPLETED (the root cause of a failure) */
            error: string | null;
            /** @description Every node of the checked version, in topological order */
            nodes: components["schemas"]["NodeComparison"][];
        };
        SchedulerLimits: {
            /** @description Runs at once; null: no limit */
            maxConcurrent: number | null;
            /** @description Runs at once in one session; null: no limit */
            maxPerSession: number | null;
            /** @description Runs at once of one workflow; null: no limit */
            maxPerWorkflow: number | null;
            /**
             * @description What a start meets when no slot is free: refusal (429) or the queue
             * @enum {string}
             */
            onLimit: "REJECT" | "QUEUE";
            /** @description Starts that may wait for a slot */
            queueCapacity: number;
            /** @description Milliseconds a start may wait for a slot; null: no limit */
            queueTimeout: number | null;
        };
        QueuedStart: {
            /** @description 1 for the start the next free slot it fits in goes to */
            position: number;
            executionId: string;
            sessionId: string;
            workflowId: string;
            workflowVersion: number;
            priority: number;
            /** Format: date-time */
            queuedAt: string;
            /** @description Paused while it waits: its queue wait is frozen and it starts paused */
            paused: boolean;
            /** @description The limits that hold it back now */
            waitingFor: {
                /** @enum {string} */
                limit: "maxConcurrent" | "maxPerSession" | "maxPerWorkflow";
                /** @description Executions running against the limit */
                running: number;
                max: number;
                /** @description The hold in words */
                message: string;
            }[];
        };
        SchedulerQueue: {
            running: number;
            queued: number;
            limits: components["schemas"]["SchedulerLimits"];
            /** @description In the order the queue takes them */
            items: components["schemas"]["QueuedStart"][];
        };
        /** @description The node's status after the command */
        NodeState: {
            executionId: string;
            nodeId: string;
            /**
             * @description Null before the run starts
             * @enum {string|null}
             */
            status: "PENDING" | "RUNNING" | "WAITING" | "PAUSED" | "COMPLETED" | "FAILURE" | "TIMED_OUT" | "UPSTREAM_FAILED" | "SKIPPED" | "STOPPED" | "CANCELLED" | null;
        };
        SignalAnswer: {
            executionId: string;
            nodeId: string;
            /** @description The message whose wait was answered */
            messageId: string;
            approved: boolean;
        };
        /** @description A message a `WAIT_FOR_SIGNAL` node holds until it is answered */
        Approval: {
            executionId: string;
            sessionId: string;
            workflowId: string;
            nodeId: string;
            messageId: string;
            prompt: string | null;
            /** @description The payload of the message waiting */
            payload: unknown;
            /** Format: date-time */
            requestedAt: string;
        };
        Breakpoints: {
            /** @description In topological order */
            nodeIds: string[];
        };
        AuditEntry: {
            id: string;
            /** Format: date-time */
            timestamp: string;
            executionId: string | null;
            nodeId: string | null;
            /** @description `PAUSE`, `RESUME`, `STEP`, `STOP`, `SKIP`, `UNSKIP`, `SIGNAL`, `BREAKPOINTS`, `PRIORITY`, `SCHEDULER_LIMITS`, `RESTART`, `RESTART_FROM_NODE`, `RETRY`, `RECOVER` */
            command: string;
            /** @enum {string} */
            outcome: "APPLIED" | "REFUSED";
            /** @description Why it was refused */
            reason: string | null;
            /** @description Who sent it; null when nobody is named */
            actor: string | null;
            /** @description What a restart changed: the inputs it edited or added, the version it ran; absent otherwise */
            detail?: string;
        };
        Supervisor: {
            id: string;
            /**
             * @description `review`: reviews control commands and may refuse them
             * @enum {string}
             */
            type: "review" | "rule";
            /** @enum {string} */
            state: "ACTIVE";
            /** @description Commands reviewed */
            reviewed: number;
            /** @description Commands refused */
            refused: number;
        };
        ControlBusStatus: {
            running: number;
            /** @description Starts waiting for a slot */
            queued: number;
            limits: components["schemas"]["SchedulerLimits"];
            supervisors: components["schemas"]["Supervisor"][];
            /** @description With high availability, whether this server leads; a server alone always does */
            leader: boolean;
        };
        FailedAttempt: {
            /** @description The attempt, 1 for the first */
            attempt: number;
            /** @description Why it failed */
            error: string;
        };
        DeadLetter: {
            id: string;
            /** @description The run the message failed in */
            executionId: string;
            sessionId: string;
            workflowId: string;
            /** @description The node that gave the message up */
            nodeId: string;
            nodeType: string;
            /** @description The id of the message the node received */
            messageId: string;
            /** @description The payload the node received */
            payload: unknown;
            headers: {
                [key: string]: unknown;
            };
            /** @description The error of the last attempt */
            error: string;
            /** @description Every attempt made, in order */
            attempts: components["schemas"]["FailedAttempt"][];
            /** Format: date-time */
            createdAt: string;
            /** @description The execution the last redrive started; null until redriven */
            redrivenAs: string | null;
            /** Format: date-time */
            redrivenAt: string | null;
        };
        DeadLetterPage: {
            items: components["schemas"]["DeadLetter"][];
            /** @description The `cursor` of the next page; null on the last page */
            nextCursor: string | null;
        };
        RedriveAnswer: {
            /** @description The new execution */
            executionId: string;
            status: components["schemas"]["ExecutionStatus"];
            letter: components["schemas"]["DeadLetter"];
        };
        Health: {
            /**
             * @description DOWN when any component is
             * @enum {string}
             */
            status: "UP" | "DOWN";
            /** @description Only for an unrestricted ADMIN key, or when no key is set */
            components?: {
                [key: string]: {
                    /** @enum {string} */
                    status: "UP" | "DOWN";
                    details?: {
                        [key: string]: unknown;
                    };
                };
            };
        };
        ApplicationInfo: {
            build: {
                version: string;
                commit: string;
                /** @description When it was built (ISO-8601), or `unknown` */
                time: string;
                /** @description Plugins built in */
                plugins: string[];
                /** @description Whether the relational stores are built in */
                persistence: boolean;
                /** @description Whether remote workers are built in */
                workers: boolean;
            };
            profile: string;
            runtime: {
                /** @enum {string} */
                name: "node";
                version: string;
            };
        };
        Meter: {
            name: string;
            description: string;
            baseUnit: string | null;
            /** @description Summed over the samples whose tags match the `tag` filters */
            measurements: {
                /** @enum {string} */
                statistic: "COUNT" | "VALUE" | "TOTAL_TIME";
                value: number;
            }[];
            availableTags: {
                tag: string;
                values: string[];
            }[];
        };
        LoggerLevels: {
            /**
             * @description Set through this endpoint; null: the profile decides
             * @enum {string|null}
             */
            configuredLevel: "TRACE" | "DEBUG" | "INFO" | "WARN" | "ERROR" | "OFF" | null;
            /** @enum {string} */
            effectiveLevel: "TRACE" | "DEBUG" | "INFO" | "WARN" | "ERROR" | "OFF";
        };
        Loggers: {
            levels: ("TRACE" | "DEBUG" | "INFO" | "WARN" | "ERROR" | "OFF")[];
            loggers: {
                ROOT: components["schemas"]["LoggerLevels"];
                app: components["schemas"]["LoggerLevels"];
                engine: components["schemas"]["LoggerLevels"];
            };
        };
        ThreadDump: {
            eventLoop: {
                /** @description Event loop delay since the server started */
                delayMs: {
                    min: number;
                    max: number;
                    mean: number;
                    p50: number;
                    p99: number;
                };
                utilization: {
                    idle: number;
                    active: number;
                    utilization: number;
                };
            };
            activeResources: string[];
            /** @description Bytes, by kind of memory */
            memory: {
                [key: string]: number;
            };
            uptimeSeconds: number;
            /** @description Parts of Node's diagnostic report, as Node writes them */
            report: {
                header: unknown;
                javascriptStack: unknown;
                libuv: unknown;
                workers: unknown;
            };
        };
        /**
         * @description What a plugin type does
         * @enum {string}
         */
        NodeKind: "trigger" | "processor" | "terminal";
        Session: {
            sessionId: string;
            name: string;
            initiator: string;
            description: string;
            /** Format: date-time */
            createdAt: string;
            /** Format: date-time */
            updatedAt: string;
            /** @description Ids of the workflows it holds */
            workflows: string[];
        };
        WorkflowDefinition: {
            workflowId: string;
            /** @default  */
            description: string;
            nodes: {
                nodeId: string;
                type: string;
                config?: {
                    [key: string]: unknown;
                };
            }[];
            /** @default [] */
            edges: {
                source: string;
                target: string;
                sourcePort?: string;
            }[];
        };
        WorkflowSummary: {
            workflowId: string;
            description: string;
            version: number;
            /** Format: date-time */
            createdAt: string;
            /** Format: date-time */
            updatedAt: string;
            nodes: number;
            edges: number;
            /** @description Always-on: the server keeps one run of it going */
            active: boolean;
        };
        Activation: {
            sessionId: string;
            workflowId: string;
            active: boolean;
            /** @description The run kept going; null while none runs or when inactive */
            executionId: string | null;
        };
        SavedWorkflow: {
            sessionId: string;
            workflowId: string;
            version: number;
            /** @description True when this save created the workflow */
            created: boolean;
        };
        WorkflowLayout: {
            sessionId: string;
            workflowId: string;
            /** @description The current version, whose nodes are placed */
            version: number;
            /** @description Canvas positions by node id; nodes without one are laid out */
            positions: {
                [key: string]: {
                    x: number;
                    y: number;
                };
            };
        };
        WorkflowValidation: {
            valid: boolean;
            message: string;
            errors: components["schemas"]["FieldError"][];
            /** @description Output ports by node id, for every node whose configuration is valid */
            outputPorts: {
                [key: string]: string[];
            };
        };
        WorkflowGraph: {
            workflowId: string;
            version: number;
            nodes: {
                nodeId: string;
                type: string;
                kind: components["schemas"]["NodeKind"];
                /** @description 0 without parents, else one past the deepest parent */
                level: number;
            }[];
            edges: {
                source: string;
                target: string;
                sourcePort?: string;
            }[];
            /** @description Output ports by node id, for every node whose configuration is valid */
            outputPorts: {
                [key: string]: string[];
            };
            /** @description Node ids by level */
            levels: string[][];
        };
        WorkflowVersion: {
            version: number;
            /** Format: date-time */
            createdAt: string;
            author: string;
            note: string | null;
            current: boolean;
        };
        WorkflowVersionDiff: {
            from: number;
            to: number;
            nodes: {
                added: {
                    nodeId: string;
                    type: string;
                    config?: {
                        [key: string]: unknown;
                    };
                }[];
                removed: {
                    nodeId: string;
                    type: string;
                    config?: {
                        [key: string]: unknown;
                    };
                }[];
                /** @description The `to` version of each changed node */
                changed: {
                    nodeId: string;
                    type: string;
                    config?: {
                        [key: string]: unknown;
                    };
                }[];
            };
            edges: {
                added: {
                    source: string;
                    target: string;
                    sourcePort?: string;
                }[];
                removed: {
                    source: string;
                    target: string;
                    sourcePort?: string;
                }[];
            };
        };
        Plugin: {
            type: string;
            kind: components["schemas"]["NodeKind"];
            description: string;
            /** @description The plugin that provides the type */
            plugin: string;
            ports: string[];
            /** @description JSON Schema of the configuration */
            configSchema: {
                [key: string]: unknown;
            };
            defaultTimeoutSeconds: number | null;
        };
        Worker: {
            workerId: string;
            name: string;
            pool: string;
            /** @description The node types it runs, sorted */
            pluginTypes: string[];
            /** @description Nodes it runs at once */
            slots: number;
            freeSlots: number;
            /** @description The worker's address as this server sees it */
            address: string;
            /** @description TLS with a verified client certificate */
            secure: boolean;
            /** Format: date-time */
            connectedAt: string;
            /** Format: date-time */
            lastSeenAt: string;
        };
        WorkerPool: {
            pool: string;
            workers: number;
            slots: number;
            freeSlots: number;
            /** @description Types at least one worker of the pool runs, sorted */
            pluginTypes: string[];
        };
        Workers: {
            /** @description Whether this server accepts worker connections */
            accepting: boolean;
            workers: components["schemas"]["Worker"][];
            /** @description By pool name */
            pools: components["schemas"]["WorkerPool"][];
        };
        /** @description An event; state events carry `status`, node events their counts */
        Event: {
            /** @description The kind: `execution.queued|started|paused|resumed|completed|failed|stopped|timed_out|aborted`, `node.started|waiting|paused|resumed|completed|failed|timed_out|skipped|upstream_failed`, `result`, `log`, `approval.requested|answered|timed_out`, `control.applied|refused`, `scheduler.limits` */
            kind: string;
            /** Format: date-time */
            timestamp: string;
            executionId: string | null;
            sessionId: string | null;
            workflowId: string | null;
            /** @description Where the event is about one node */
            nodeId?: string;
        } & {
            [key: string]: unknown;
        };
        ProgressEvent: {
            /** @description The kind: `execution.queued|started|paused|resumed|completed|failed|stopped|timed_out|aborted`, `node.started|waiting|paused|resumed|completed|failed|timed_out|skipped|upstream_failed`, `result`, `log`, `approval.requested|answered|timed_out`, `control.applied|refused`, `scheduler.limits` */
            kind: string;
            /** Format: date-time */
            timestamp: string;
            executionId: string | null;
            sessionId: string | null;
            workflowId: string | null;
            /** @description Where the event is about one node */
            nodeId?: string;
            progress: {
                status: components["schemas"]["ExecutionStatus"];
                nodesTotal: number;
                nodesFinished: number;
                /** @description Nodes by status */
                byStatus: {
                    [key: string]: number;
                };
                execution: components["schemas"]["Execution"];
            };
        } & {
            [key: string]: unknown;
        };
        /** @description The live flow of a run (`flow=true`), sent without an `id:` line so that it leaves the stream position as it was */
        FlowEvent: {
            /** @enum {string} */
            kind: "flow";
            /** Format: date-time */
            timestamp: string;
            executionId: string | null;
            sessionId: string | null;
            workflowId: string | null;
            /** @description Where the event is about one node */
            nodeId?: string;
            flow: {
                /** @description How often the flow is sent */
                intervalMs: number;
                /** @description The first node, in topological order, that holds the others back (holdingBack); null when none does */
                heldBackBy: string | null;
                nodes: {
                    nodeId: string;
                    status: components["schemas"]["NodeStatus"];
                    messagesIn: number;
                    messagesOut: number;
                    /** @description Messages attempted again so far */
                    retries: number;
                    /** @description It waits for room in a child's input */
                    waitingToSend: boolean;
                    /** @description Its input is full (a parent waits on it, or will with its next message) while it is itself free to send: it waits for room in no child's input and feeds no full input */
                    holdingBack: boolean;
                }[];
                edges: {
                    source: string;
                    target: string;
                    /** @description Messages of this edge queued in the target's input */
                    queued: number;
                    /** @description The target input's capacity, shared by all its edges */
                    capacity: number;
                    /** @description Messages of this edge the target took so far */
                    taken: number;
                    /** @description The source waits for room in the target's input */
                    sourceWaiting: boolean;
                    /** @description Messages per second the target took from this edge; null on the first event */
                    perSecond: number | null;
                }[];
            };
        } & {
            [key: string]: unknown;
        };
    };
    responses: never;
    parameters: never;
    requestBodies: never;
    headers: never;
    pathItems: never;
}
export type $defs = Record<string, never>;
export interface operations {
    listSessions: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The sessions */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** Format: date-time */
                        timestamp: string;
                        status: number;
                        message: string;
                        data: components["schemas"]["Session"][];
                    };
                };
            };
            /** @description No key, or a key the server does not know (SPEC Authentication: no body); on a hook, no secret or signature that fits */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description The key's role or sessions do not allow this; the access checks answer without a body, other refusals with the error envelope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Too many requests or starts; retry after `Retry-After` seconds */
            429: {
                headers: {
                    /** @description Seconds to wait before trying again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description An unexpected failure; the message gives a reference to the server log */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Not available here or now (a standby, a server closing); retry after `Retry-After` seconds */
            503: {
                headers: {
                    /** @description Seconds to wait before trying again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    createSession: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    sessionId?: string;
                    name: string;
                    initiator: string;
                    description?: string;
                    workflows?: components["schemas"]["WorkflowDefinitionInput"][];
                };
            };
        };
        responses: {
            /** @description The session created */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** Format: date-time */
                        timestamp: string;
                        status: number;
                        message: string;
                        data: components["schemas"]["Session"];
                    };
                };
            };
            /** @description The request is not valid: a parameter, a field or the body; `errors` names the fields */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description No key, or a key the server does not know (SPEC Authentication: no body); on a hook, no secret or signature that fits */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description The key's role or sessions do not allow this; the access checks answer without a body, other refusals with the error envelope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Not possible in the current state */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description The body is larger than the limit */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description The body is not JSON */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Too many requests or starts; retry after `Retry-After` seconds */
            429: {
                headers: {
                    /** @description Seconds to wait before trying again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description An unexpected failure; the message gives a reference to the server log */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Not available here or now (a standby, a server closing); retry after `Retry-After` seconds */
            503: {
                headers: {
                    /** @description Seconds to wait before trying again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    getSession: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                sessionId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The session */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** Format: date-time */
                        timestamp: string;
                        status: number;
                        message: string;
                        data: components["schemas"]["Session"];
                    };
                };
            };
            /** @description The request is not valid: a parameter, a field or the body; `errors` names the fields */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description No key, or a key the server does not know (SPEC Authentication: no body); on a hook, no secret or signature that fits */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description The key's role or sessions do not allow this; the access checks answer without a body, other refusals with the error envelope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Not found, or in a session the key may not reach */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Too many requests or starts; retry after `Retry-After` seconds */
            429: {
                headers: {
                    /** @description Seconds to wait before trying again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description An unexpected failure; the message gives a reference to the server log */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Not available here or now (a standby, a server closing); retry after `Retry-After` seconds */
            503: {
                headers: {
                    /** @description Seconds to wait before trying again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    deleteSession: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                sessionId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The session deleted */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** Format: date-time */
                        timestamp: string;
                        status: number;
                        message: string;
                        data: {
                            sessionId: string;
                        };
                    };
                };
            };
            /** @description The request is not valid: a parameter, a field or the body; `errors` names the fields */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description No key, or a key the server does not know (SPEC Authentication: no body); on a hook, no secret or signature that fits */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description The key's role or sessions do not allow this; the access checks answer without a body, other refusals with the error envelope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Not found, or in a session the key may not reach */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Not possible in the current state */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Too many requests or starts; retry after `Retry-After` seconds */
            429: {
                headers: {
                    /** @description Seconds to wait before trying again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description An unexpected failure; the message gives a reference to the server log */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Not available here or now (a standby, a server closing); retry after `Retry-After` seconds */
            503: {
                headers: {
                    /** @description Seconds to wait before trying again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    validateWorkflow: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["WorkflowDefinitionInput"];
            };
        };
        responses: {
            /** @description The validation result */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** Format: date-time */
                        timestamp: string;
                        status: number;
                        message: string;
                        data: components["schemas"]["WorkflowValidation"];
                    };
                };
            };
            /** @description The request is not valid: a parameter, a field or the body; `errors` names the fields */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description No key, or a key the server does not know (SPEC Authentication: no body); on a hook, no secret or signature that fits */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description The key's role or sessions do not allow this; the access checks answer without a body, other refusals with the error envelope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description The body is larger than the limit */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description The body is not JSON */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Too many requests or starts; retry after `Retry-After` seconds */
            429: {
                headers: {
                    /** @description Seconds to wait before trying again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description An unexpected failure; the message gives a reference to the server log */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Not available here or now (a standby, a server closing); retry after `Retry-After` seconds */
            503: {
                headers: {
                    /** @description Seconds to wait before trying again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    listWorkflows: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                sessionId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The workflows */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** Format: date-time */
                        timestamp: string;
                        status: number;
                        message: string;
                        data: components["schemas"]["WorkflowSummary"][];
                    };
                };
            };
            /** @description The request is not valid: a parameter, a field or the body; `errors` names the fields */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description No key, or a key the server does not know (SPEC Authentication: no body); on a hook, no secret or signature that fits */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description The key's role or sessions do not allow this; the access checks answer without a body, other refusals with the error envelope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Not found, or in a session the key may not reach */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Too many requests or starts; retry after `Retry-After` seconds */
            429: {
                headers: {
                    /** @description Seconds to wait before trying again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description An unexpected failure; the message gives a reference to the server log */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Not available here or now (a standby, a server closing); retry after `Retry-After` seconds */
            503: {
                headers: {
                    /** @description Seconds to wait before trying again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    getWorkflow: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                sessionId: string;
                workflowId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The workflow definition */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** Format: date-time */
                        timestamp: string;
                        status: number;
                        message: string;
                        data: components["schemas"]["WorkflowDefinition"];
                    };
                };
            };
            /** @description The request is not valid: a parameter, a field or the body; `errors` names the fields */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description No key, or a key the server does not know (SPEC Authentication: no body); on a hook, no secret or signature that fits */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description The key's role or sessions do not allow this; the access checks answer without a body, other refusals with the error envelope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Not found, or in a session the key may not reach */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Too many requests or starts; retry after `Retry-After` seconds */
            429: {
                headers: {
                    /** @description Seconds to wait before trying again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description An unexpected failure; the message gives a reference to the server log */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Not available here or now (a standby, a server closing); retry after `Retry-After` seconds */
            503: {
                headers: {
                    /** @description Seconds to wait before trying again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    saveWorkflow: {
        parameters: {
            query?: {
                note?: string;
            };
            header?: never;
            path: {
                sessionId: string;
                workflowId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    workflowId?: string;
                    /** @default  */
                    description?: string;
                    nodes: {
                        nodeId: string;
                        type: string;
                        config?: {
                            [key: string]: unknown;
                        };
                    }[];
                    /** @default [] */
                    edges?: {
                        source: string;
                        target: string;
                        sourcePort?: string;
                    }[];
                };
            };
        };
        responses: {
            /** @description The workflow saved as a new version */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** Format: date-time */
                        timestamp: string;
                        status: number;
                        message: string;
                        data: components["schemas"]["SavedWorkflow"];
                    };
                };
            };
            /** @description The workflow created */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** Format: date-time */
                        timestamp: string;
                        status: number;
                        message: string;
                        data: components["schemas"]["SavedWorkflow"];
                    };
                };
            };
            /** @description The request is not valid: a parameter, a field or the body; `errors` names the fields */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description No key, or a key the server does not know (SPEC Authentication: no body); on a hook, no secret or signature that fits */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description The key's role or sessions do not allow this; the access checks answer without a body, other refusals with the error envelope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Not found, or in a session the key may not reach */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description The body is larger than the limit */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description The body is not JSON */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Too many requests or starts; retry after `Retry-After` seconds */
            429: {
                headers: {
                    /** @description Seconds to wait before trying again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description An unexpected failure; the message gives a reference to the server log */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Not available here or now (a standby, a server closing); retry after `Retry-After` seconds */
            503: {
                headers: {
                    /** @description Seconds to wait before trying again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    deleteWorkflow: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                sessionId: string;
                workflowId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The workflow deleted */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** Format: date-time */
                        timestamp: string;
                        status: number;
                        message: string;
                        data: {
                            sessionId: string;
                            workflowId: string;
                        };
                    };
                };
            };
            /** @description The request is not valid: a parameter, a field or the body; `errors` names the fields */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description No key, or a key the server does not know (SPEC Authentication: no body); on a hook, no secret or signature that fits */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description The key's role or sessions do not allow this; the access checks answer without a body, other refusals with the error envelope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Not found, or in a session the key may not reach */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Not possible in the current state */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Too many requests or starts; retry after `Retry-After` seconds */
            429: {
                headers: {
                    /** @description Seconds to wait before trying again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description An unexpected failure; the message gives a reference to the server log */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Not available here or now (a standby, a server closing); retry after `Retry-After` seconds */
            503: {
                headers: {
                    /** @description Seconds to wait before trying again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    getWorkflowLayout: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                sessionId: string;
                workflowId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The layout */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** Format: date-time */
                        timestamp: string;
                        status: number;
                        message: string;
                        data: components["schemas"]["WorkflowLayout"];
                    };
                };
            };
            /** @description The request is not valid: a parameter, a field or the body; `errors` names the fields */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description No key, or a key the server does not know (SPEC Authentication: no body); on a hook, no secret or signature that fits */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description The key's role or sessions do not allow this; the access checks answer without a body, other refusals with the error envelope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Not found, or in a session the key may not reach */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Too many requests or starts; retry after `Retry-After` seconds */
            429: {
                headers: {
                    /** @description Seconds to wait before trying again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description An unexpected failure; the message gives a reference to the server log */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Not available here or now (a standby, a server closing); retry after `Retry-After` seconds */
            503: {
                headers: {
                    /** @description Seconds to wait before trying again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    saveWorkflowLayout: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                sessionId: string;
                workflowId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    positions: {
                        [key: string]: {
                            x: number;
                            y: number;
                        };
                    };
                };
            };
        };
        responses: {
            /** @description The layout saved */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** Format: date-time */
                        timestamp: string;
                        status: number;
                        message: string;
                        data: components["schemas"]["WorkflowLayout"];
                    };
                };
            };
            /** @description The request is not valid: a parameter, a field or the body; `errors` names the fields */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description No key, or a key the server does not know (SPEC Authentication: no body); on a hook, no secret or signature that fits */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description The key's role or sessions do not allow this; the access checks answer without a body, other refusals with the error envelope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Not found, or in a session the key may not reach */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description The body is larger than the limit */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description The body is not JSON */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Too many requests or starts; retry after `Retry-After` seconds */
            429: {
                headers: {
                    /** @description Seconds to wait before trying again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description An unexpected failure; the message gives a reference to the server log */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Not available here or now (a standby, a server closing); retry after `Retry-After` seconds */
            503: {
                headers: {
                    /** @description Seconds to wait before trying again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    getWorkflowGraph: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                sessionId: string;
                workflowId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The graph of the current version */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** Format: date-time */
                        timestamp: string;
                        status: number;
                        message: string;
                        data: components["schemas"]["WorkflowGraph"];
                    };
                };
            };
            /** @description The request is not valid: a parameter, a field or the body; `errors` names the fields */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description No key, or a key the server does not know (SPEC Authentication: no body); on a hook, no secret or signature that fits */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description The key's role or sessions do not allow this; the access checks answer without a body, other refusals with the error envelope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Not found, or in a session the key may not reach */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Too many requests or starts; retry after `Retry-After` seconds */
            429: {
                headers: {
                    /** @description Seconds to wait before trying again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description An unexpected failure; the message gives a reference to the server log */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Not available here or now (a standby, a server closing); retry after `Retry-After` seconds */
            503: {
                headers: {
                    /** @description Seconds to wait before trying again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    listWorkflowVersions: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                sessionId: string;
                workflowId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The versions, newest first */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** Format: date-time */
                        timestamp: string;
                        status: number;
                        message: string;
                        data: components["schemas"]["WorkflowVersion"][];
                    };
                };
            };
            /** @description The request is not valid: a parameter, a field or the body; `errors` names the fields */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description No key, or a key the server does not know (SPEC Authentication: no body); on a hook, no secret or signature that fits */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description The key's role or sessions do not allow this; the access checks answer without a body, other refusals with the error envelope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Not found, or in a session the key may not reach */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Too many requests or starts; retry after `Retry-After` seconds */
            429: {
                headers: {
                    /** @description Seconds to wait before trying again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description An unexpected failure; the message gives a reference to the server log */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Not available here or now (a standby, a server closing); retry after `Retry-After` seconds */
            503: {
                headers: {
                    /** @description Seconds to wait before trying again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    diffWorkflowVersions: {
        parameters: {
            query: {
                from: string;
                to: string;
            };
            header?: never;
            path: {
                sessionId: string;
                workflowId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Nodes and edges added, removed and changed */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** Format: date-time */
                        timestamp: string;
                        status: number;
                        message: string;
                        data: components["schemas"]["WorkflowVersionDiff"];
                    };
                };
            };
            /** @description The request is not valid: a parameter, a field or the body; `errors` names the fields */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description No key, or a key the server does not know (SPEC Authentication: no body); on a hook, no secret or signature that fits */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description The key's role or sessions do not allow this; the access checks answer without a body, other refusals with the error envelope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Not found, or in a session the key may not reach */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Too many requests or starts; retry after `Retry-After` seconds */
            429: {
                headers: {
                    /** @description Seconds to wait before trying again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description An unexpected failure; the message gives a reference to the server log */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Not available here or now (a standby, a server closing); retry after `Retry-After` seconds */
            503: {
                headers: {
                    /** @description Seconds to wait before trying again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    getWorkflowVersion: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                sessionId: string;
                workflowId: string;
                version: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The definition of that version */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** Format: date-time */
                        timestamp: string;
                        status: number;
                        message: string;
                        data: components["schemas"]["WorkflowDefinition"];
                    };
                };
            };
            /** @description The request is not valid: a parameter, a field or the body; `errors` names the fields */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description No key, or a key the server does not know (SPEC Authentication: no body); on a hook, no secret or signature that fits */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description The key's role or sessions do not allow this; the access checks answer without a body, other refusals with the error envelope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Not found, or in a session the key may not reach */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Too many requests or starts; retry after `Retry-After` seconds */
            429: {
                headers: {
                    /** @description Seconds to wait before trying again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description An unexpected failure; the message gives a reference to the server log */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Not available here or now (a standby, a server closing); retry after `Retry-After` seconds */
            503: {
                headers: {
                    /** @description Seconds to wait before trying again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    rollbackWorkflow: {
        parameters: {
            query?: {
                note?: string;
            };
            header?: never;
            path: {
                sessionId: string;
                workflowId: string;
                version: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The new current version */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** Format: date-time */
                        timestamp: string;
                        status: number;
                        message: string;
                        data: components["schemas"]["WorkflowVersion"];
                    };
                };
            };
            /** @description The request is not valid: a parameter, a field or the body; `errors` names the fields */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description No key, or a key the server does not know (SPEC Authentication: no body); on a hook, no secret or signature that fits */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description The key's role or sessions do not allow this; the access checks answer without a body, other refusals with the error envelope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Not found, or in a session the key may not reach */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description The body is larger than the limit */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description The body is not JSON */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Too many requests or starts; retry after `Retry-After` seconds */
            429: {
                headers: {
                    /** @description Seconds to wait before trying again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description An unexpected failure; the message gives a reference to the server log */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Not available here or now (a standby, a server closing); retry after `Retry-After` seconds */
            503: {
                headers: {
                    /** @description Seconds to wait before trying again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    listPlugins: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Every plugin type of this build */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** Format: date-time */
                        timestamp: string;
                        status: number;
                        message: string;
                        data: components["schemas"]["Plugin"][];
                    };
                };
            };
            /** @description No key, or a key the server does not know (SPEC Authentication: no body); on a hook, no secret or signature that fits */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description The key's role or sessions do not allow this; the access checks answer without a body, other refusals with the error envelope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Too many requests or starts; retry after `Retry-After` seconds */
            429: {
                headers: {
                    /** @description Seconds to wait before trying again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description An unexpected failure; the message gives a reference to the server log */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Not available here or now (a standby, a server closing); retry after `Retry-After` seconds */
            503: {
                headers: {
                    /** @description Seconds to wait before trying again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    getPlugin: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                type: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The plugin type */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** Format: date-time */
                        timestamp: string;
                        status: number;
                        message: string;
                        data: components["schemas"]["Plugin"];
                    };
                };
            };
            /** @description The request is not valid: a parameter, a field or the body; `errors` names the fields */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description No key, or a key the server does not know (SPEC Authentication: no body); on a hook, no secret or signature that fits */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description The key's role or sessions do not allow this; the access checks answer without a body, other refusals with the error envelope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Not found, or in a session the key may not reach */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Too many requests or starts; retry after `Retry-After` seconds */
            429: {
                headers: {
                    /** @description Seconds to wait before trying again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description An unexpected failure; the message gives a reference to the server log */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Not available here or now (a standby, a server closing); retry after `Retry-After` seconds */
            503: {
                headers: {
                    /** @description Seconds to wait before trying again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    listWorkers: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The workers and their pools */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** Format: date-time */
                        timestamp: string;
                        status: number;
                        message: string;
                        data: components["schemas"]["Workers"];
                    };
                };
            };
            /** @description No key, or a key the server does not know (SPEC Authentication: no body); on a hook, no secret or signature that fits */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description The key's role or sessions do not allow this; the access checks answer without a body, other refusals with the error envelope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Too many requests or starts; retry after `Retry-After` seconds */
            429: {
                headers: {
                    /** @description Seconds to wait before trying again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description An unexpected failure; the message gives a reference to the server log */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Not available here or now (a standby, a server closing); retry after `Retry-After` seconds */
            503: {
                headers: {
                    /** @description Seconds to wait before trying again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    startWorkflow: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    sessionId: string;
                    workflowId: string;
                    payload?: unknown;
                    priority?: number;
                };
            };
        };
        responses: {
            /** @description The execution accepted, RUNNING or QUEUED; for a repeated `Idempotency-Key`, the first start’s execution as it is now */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** Format: date-time */
                        timestamp: string;
                        status: number;
                        message: string;
                        data: components["schemas"]["ExecutionState"];
                    };
                };
            };
            /** @description The request is not valid: a parameter, a field or the body; `errors` names the fields */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description No key, or a key the server does not know (SPEC Authentication: no body); on a hook, no secret or signature that fits */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description The key's role or sessions do not allow this; the access checks answer without a body, other refusals with the error envelope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Not found, or in a session the key may not reach */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description The body is larger than the limit */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description The body is not JSON */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Too many requests or starts; retry after `Retry-After` seconds */
            429: {
                headers: {
                    /** @description Seconds to wait before trying again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description An unexpected failure; the message gives a reference to the server log */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Not available here or now (a standby, a server closing); retry after `Retry-After` seconds */
            503: {
                headers: {
                    /** @description Seconds to wait before trying again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    startSessionWorkflow: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                sessionId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    workflowId: string;
                    payload?: unknown;
                    priority?: number;
                };
            };
        };
        responses: {
            /** @description The execution accepted, RUNNING or QUEUED; for a repeated `Idempotency-Key`, the first start’s execution as it is now */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** Format: date-time */
                        timestamp: string;
                        status: number;
                        message: string;
                        data: components["schemas"]["ExecutionState"];
                    };
                };
            };
            /** @description The request is not valid: a parameter, a field or the body; `errors` names the fields */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description No key, or a key the server does not know (SPEC Authentication: no body); on a hook, no secret or signature that fits */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description The key's role or sessions do not allow this; the access checks answer without a body, other refusals with the error envelope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Not found, or in a session the key may not reach */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description The body is larger than the limit */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description The body is not JSON */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Too many requests or starts; retry after `Retry-After` seconds */
            429: {
                headers: {
                    /** @description Seconds to wait before trying again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description An unexpected failure; the message gives a reference to the server log */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Not available here or now (a standby, a server closing); retry after `Retry-After` seconds */
            503: {
                headers: {
                    /** @description Seconds to wait before trying again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    getExecution: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The execution with its nodes */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** Format: date-time */
                        timestamp: string;
                        status: number;
                        message: string;
                        data: components["schemas"]["Execution"];
                    };
                };
            };
            /** @description The request is not valid: a parameter, a field or the body; `errors` names the fields */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description No key, or a key the server does not know (SPEC Authentication: no body); on a hook, no secret or signature that fits */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description The key's role or sessions do not allow this; the access checks answer without a body, other refusals with the error envelope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Not found, or in a session the key may not reach */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Too many requests or starts; retry after `Retry-After` seconds */
            429: {
                headers: {
                    /** @description Seconds to wait before trying again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description An unexpected failure; the message gives a reference to the server log */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Not available here or now (a standby, a server closing); retry after `Retry-After` seconds */
            503: {
                headers: {
                    /** @description Seconds to wait before trying again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    searchExecutions: {
        parameters: {
            query?: {
                sessionId?: string;
                workflowId?: string;
                status?: "QUEUED" | "RUNNING" | "PAUSED" | "COMPLETED" | "FAILED" | "STOPPED" | "TIMED_OUT" | "ABORTED";
                since?: string;
                until?: string;
                limit?: number;
                cursor?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description One page of executions */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** Format: date-time */
                        timestamp: string;
                        status: number;
                        message: string;
                        data: components["schemas"]["ExecutionPage"];
                    };
                };
            };
            /** @description The request is not valid: a parameter, a field or the body; `errors` names the fields */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description No key, or a key the server does not know (SPEC Authentication: no body); on a hook, no secret or signature that fits */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description The key's role or sessions do not allow this; the access checks answer without a body, other refusals with the error envelope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Too many requests or starts; retry after `Retry-After` seconds */
            429: {
                headers: {
                    /** @description Seconds to wait before trying again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description An unexpected failure; the message gives a reference to the server log */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Not available here or now (a standby, a server closing); retry after `Retry-After` seconds */
            503: {
                headers: {
                    /** @description Seconds to wait before trying again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    setExecutionPriority: {
        parameters: {
            query: {
                priority: number;
            };
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The new priority */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** Format: date-time */
                        timestamp: string;
                        status: number;
                        message: string;
                        data: components["schemas"]["PriorityChange"];
                    };
                };
            };
            /** @description The request is not valid: a parameter, a field or the body; `errors` names the fields */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description No key, or a key the server does not know (SPEC Authentication: no body); on a hook, no secret or signature that fits */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description The key's role or sessions do not allow this; the access checks answer without a body, other refusals with the error envelope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Not found, or in a session the key may not reach */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description The body is larger than the limit */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description The body is not JSON */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Too many requests or starts; retry after `Retry-After` seconds */
            429: {
                headers: {
                    /** @description Seconds to wait before trying again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description An unexpected failure; the message gives a reference to the server log */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Not available here or now (a standby, a server closing); retry after `Retry-After` seconds */
            503: {
                headers: {
                    /** @description Seconds to wait before trying again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    stopExecution: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The execution, stopping or stopped */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** Format: date-time */
                        timestamp: string;
                        status: number;
                        message: string;
                        data: components["schemas"]["ExecutionState"];
                    };
                };
            };
            /** @description The request is not valid: a parameter, a field or the body; `errors` names the fields */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description No key, or a key the server does not know (SPEC Authentication: no body); on a hook, no secret or signature that fits */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description The key's role or sessions do not allow this; the access checks answer without a body, other refusals with the error envelope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Not found, or in a session the key may not reach */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Not possible in the current state */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description The body is larger than the limit */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description The body is not JSON */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Too many requests or starts; retry after `Retry-After` seconds */
            429: {
                headers: {
                    /** @description Seconds to wait before trying again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description An unexpected failure; the message gives a reference to the server log */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Not available here or now (a standby, a server closing); retry after `Retry-After` seconds */
            503: {
                headers: {
                    /** @description Seconds to wait before trying again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    getSchedulerLimits: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The limits in force */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** Format: date-time */
                        timestamp: string;
                        status: number;
                        message: string;
                        data: components["schemas"]["SchedulerLimits"];
                    };
                };
            };
            /** @description No key, or a key the server does not know (SPEC Authentication: no body); on a hook, no secret or signature that fits */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description The key's role or sessions do not allow this; the access checks answer without a body, other refusals with the error envelope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Too many requests or starts; retry after `Retry-After` seconds */
            429: {
                headers: {
                    /** @description Seconds to wait before trying again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description An unexpected failure; the message gives a reference to the server log */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Not available here or now (a standby, a server closing); retry after `Retry-After` seconds */
            503: {
                headers: {
                    /** @description Seconds to wait before trying again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    setSchedulerLimits: {
        parameters: {
            query?: {
                maxConcurrent?: string;
                maxPerSession?: string;
                maxPerWorkflow?: string;
                onLimit?: "REJECT" | "QUEUE";
                queueCapacity?: number;
                queueTimeout?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The limits now in force */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** Format: date-time */
                        timestamp: string;
                        status: number;
                        message: string;
                        data: components["schemas"]["SchedulerLimits"];
                    };
                };
            };
            /** @description The request is not valid: a parameter, a field or the body; `errors` names the fields */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description No key, or a key the server does not know (SPEC Authentication: no body); on a hook, no secret or signature that fits */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description The key's role or sessions do not allow this; the access checks answer without a body, other refusals with the error envelope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description The body is larger than the limit */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description The body is not JSON */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Too many requests or starts; retry after `Retry-After` seconds */
            429: {
                headers: {
                    /** @description Seconds to wait before trying again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description An unexpected failure; the message gives a reference to the server log */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Not available here or now (a standby, a server closing); retry after `Retry-After` seconds */
            503: {
                headers: {
                    /** @description Seconds to wait before trying again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    getSchedulerQueue: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The waiting starts */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** Format: date-time */
                        timestamp: string;
                        status: number;
                        message: string;
                        data: components["schemas"]["SchedulerQueue"];
                    };
                };
            };
            /** @description No key, or a key the server does not know (SPEC Authentication: no body); on a hook, no secret or signature that fits */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description The key's role or sessions do not allow this; the access checks answer without a body, other refusals with the error envelope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Too many requests or starts; retry after `Retry-After` seconds */
            429: {
                headers: {
                    /** @description Seconds to wait before trying again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description An unexpected failure; the message gives a reference to the server log */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Not available here or now (a standby, a server closing); retry after `Retry-After` seconds */
            503: {
                headers: {
                    /** @description Seconds to wait before trying again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    listExecutionResults: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The result events */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** Format: date-time */
                        timestamp: string;
                        status: number;
                        message: string;
                        data: components["schemas"]["ResultEvent"][];
                    };
                };
            };
            /** @description The request is not valid: a parameter, a field or the body; `errors` names the fields */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description No key, or a key the server does not know (SPEC Authentication: no body); on a hook, no secret or signature that fits */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description The key's role or sessions do not allow this; the access checks answer without a body, other refusals with the error envelope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Not found, or in a session the key may not reach */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Too many requests or starts; retry after `Retry-After` seconds */
            429: {
                headers: {
                    /** @description Seconds to wait before trying again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description An unexpected failure; the message gives a reference to the server log */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Not available here or now (a standby, a server closing); retry after `Retry-After` seconds */
            503: {
                headers: {
                    /** @description Seconds to wait before trying again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    listExecutionLogs: {
        parameters: {
            query?: {
                nodeId?: string;
                after?: number;
                /** @description At most this many lines, the oldest first; all of them when absent */
                limit?: number;
            };
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The log lines */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** Format: date-time */
                        timestamp: string;
                        status: number;
                        message: string;
                        data: components["schemas"]["LogLine"][];
                    };
                };
            };
            /** @description The request is not valid: a parameter, a field or the body; `errors` names the fields */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description No key, or a key the server does not know (SPEC Authentication: no body); on a hook, no secret or signature that fits */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description The key's role or sessions do not allow this; the access checks answer without a body, other refusals with the error envelope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Not found, or in a session the key may not reach */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Too many requests or starts; retry after `Retry-After` seconds */
            429: {
                headers: {
                    /** @description Seconds to wait before trying again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description An unexpected failure; the message gives a reference to the server log */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Not available here or now (a standby, a server closing); retry after `Retry-After` seconds */
            503: {
                headers: {
                    /** @description Seconds to wait before trying again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    getExecutionProgress: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                sessionId: string;
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The execution and its progress */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** Format: date-time */
                        timestamp: string;
                        status: number;
                        message: string;
                        data: components["schemas"]["ExecutionProgress"];
                    };
                };
            };
            /** @description The request is not valid: a parameter, a field or the body; `errors` names the fields */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description No key, or a key the server does not know (SPEC Authentication: no body); on a hook, no secret or signature that fits */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description The key's role or sessions do not allow this; the access checks answer without a body, other refusals with the error envelope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Not found, or in a session the key may not reach */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Too many requests or starts; retry after `Retry-After` seconds */
            429: {
                headers: {
                    /** @description Seconds to wait before trying again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description An unexpected failure; the message gives a reference to the server log */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Not available here or now (a standby, a server closing); retry after `Retry-After` seconds */
            503: {
                headers: {
                    /** @description Seconds to wait before trying again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    listSessionExecutions: {
        parameters: {
            query?: {
                workflowId?: string;
                status?: "QUEUED" | "RUNNING" | "PAUSED" | "COMPLETED" | "FAILED" | "STOPPED" | "TIMED_OUT" | "ABORTED";
                limit?: number;
            };
            header?: never;
            path: {
                sessionId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The executions */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** Format: date-time */
                        timestamp: string;
                        status: number;
                        message: string;
                        data: components["schemas"]["Execution"][];
                    };
                };
            };
            /** @description The request is not valid: a parameter, a field or the body; `errors` names the fields */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description No key, or a key the server does not know (SPEC Authentication: no body); on a hook, no secret or signature that fits */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description The key's role or sessions do not allow this; the access checks answer without a body, other refusals with the error envelope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Too many requests or starts; retry after `Retry-After` seconds */
            429: {
                headers: {
                    /** @description Seconds to wait before trying again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description An unexpected failure; the message gives a reference to the server log */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Not available here or now (a standby, a server closing); retry after `Retry-After` seconds */
            503: {
                headers: {
                    /** @description Seconds to wait before trying again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    listControlAudit: {
        parameters: {
            query?: {
                limit?: number;
                executionId?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The audit entries, newest first */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** Format: date-time */
                        timestamp: string;
                        status: number;
                        message: string;
                        data: components["schemas"]["AuditEntry"][];
                    };
                };
            };
            /** @description The request is not valid: a parameter, a field or the body; `errors` names the fields */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description No key, or a key the server does not know (SPEC Authentication: no body); on a hook, no secret or signature that fits */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description The key's role or sessions do not allow this; the access checks answer without a body, other refusals with the error envelope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Too many requests or starts; retry after `Retry-After` seconds */
            429: {
                headers: {
                    /** @description Seconds to wait before trying again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description An unexpected failure; the message gives a reference to the server log */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Not available here or now (a standby, a server closing); retry after `Retry-After` seconds */
            503: {
                headers: {
                    /** @description Seconds to wait before trying again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    listSupervisors: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The supervisors and their counters */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** Format: date-time */
                        timestamp: string;
                        status: number;
                        message: string;
                        data: components["schemas"]["Supervisor"][];
                    };
                };
            };
            /** @description No key, or a key the server does not know (SPEC Authentication: no body); on a hook, no secret or signature that fits */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description The key's role or sessions do not allow this; the access checks answer without a body, other refusals with the error envelope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Too many requests or starts; retry after `Retry-After` seconds */
            429: {
                headers: {
                    /** @description Seconds to wait before trying again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description An unexpected failure; the message gives a reference to the server log */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Not available here or now (a standby, a server closing); retry after `Retry-After` seconds */
            503: {
                headers: {
                    /** @description Seconds to wait before trying again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    getControlBusStatus: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Runs going and queued, limits, supervisors, leadership */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** Format: date-time */
                        timestamp: string;
                        status: number;
                        message: string;
                        data: components["schemas"]["ControlBusStatus"];
                    };
                };
            };
            /** @description No key, or a key the server does not know (SPEC Authentication: no body); on a hook, no secret or signature that fits */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description The key's role or sessions do not allow this; the access checks answer without a body, other refusals with the error envelope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Too many requests or starts; retry after `Retry-After` seconds */
            429: {
                headers: {
                    /** @description Seconds to wait before trying again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description An unexpected failure; the message gives a reference to the server log */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Not available here or now (a standby, a server closing); retry after `Retry-After` seconds */
            503: {
                headers: {
                    /** @description Seconds to wait before trying again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    pauseExecution: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The run's status after the command */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** Format: date-time */
                        timestamp: string;
                        status: number;
                        message: string;
                        data: components["schemas"]["ExecutionState"];
                    };
                };
            };
            /** @description The request is not valid: a parameter, a field or the body; `errors` names the fields */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description No key, or a key the server does not know (SPEC Authentication: no body); on a hook, no secret or signature that fits */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description The key's role or sessions do not allow this; the access checks answer without a body, other refusals with the error envelope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Not found, or in a session the key may not reach */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Not possible in the current state */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description The body is larger than the limit */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description The body is not JSON */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Too many requests or starts; retry after `Retry-After` seconds */
            429: {
                headers: {
                    /** @description Seconds to wait before trying again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description An unexpected failure; the message gives a reference to the server log */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Not available here or now (a standby, a server closing); retry after `Retry-After` seconds */
            503: {
                headers: {
                    /** @description Seconds to wait before trying again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    resumeExecution: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The run's status after the command */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** Format: date-time */
                        timestamp: string;
                        status: number;
                        message: string;
                        data: components["schemas"]["ExecutionState"];
                    };
                };
            };
            /** @description The request is not valid: a parameter, a field or the body; `errors` names the fields */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description No key, or a key the server does not know (SPEC Authentication: no body); on a hook, no secret or signature that fits */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description The key's role or sessions do not allow this; the access checks answer without a body, other refusals with the error envelope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Not found, or in a session the key may not reach */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Not possible in the current state */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description The body is larger than the limit */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description The body is not JSON */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Too many requests or starts; retry after `Retry-After` seconds */
            429: {
                headers: {
                    /** @description Seconds to wait before trying again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description An unexpected failure; the message gives a reference to the server log */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Not available here or now (a standby, a server closing); retry after `Retry-After` seconds */
            503: {
                headers: {
                    /** @description Seconds to wait before trying again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    stepExecution: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The run's status after the command */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** Format: date-time */
                        timestamp: string;
                        status: number;
                        message: string;
                        data: components["schemas"]["ExecutionState"];
                    };
                };
            };
            /** @description The request is not valid: a parameter, a field or the body; `errors` names the fields */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description No key, or a key the server does not know (SPEC Authentication: no body); on a hook, no secret or signature that fits */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description The key's role or sessions do not allow this; the access checks answer without a body, other refusals with the error envelope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Not found, or in a session the key may not reach */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Not possible in the current state */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description The body is larger than the limit */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description The body is not JSON */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Too many requests or starts; retry after `Retry-After` seconds */
            429: {
                headers: {
                    /** @description Seconds to wait before trying again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description An unexpected failure; the message gives a reference to the server log */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Not available here or now (a standby, a server closing); retry after `Retry-After` seconds */
            503: {
                headers: {
                    /** @description Seconds to wait before trying again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    pauseNode: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
                nodeId: string;
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": {
                    approved?: unknown;
                    messageId?: unknown;
                    payload?: unknown;
                    comment?: unknown;
                };
            };
        };
        responses: {
            /** @description The node's status after the command */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** Format: date-time */
                        timestamp: string;
                        status: number;
                        message: string;
                        data: components["schemas"]["NodeState"];
                    };
                };
            };
            /** @description The request is not valid: a parameter, a field or the body; `errors` names the fields */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description No key, or a key the server does not know (SPEC Authentication: no body); on a hook, no secret or signature that fits */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description The key's role or sessions do not allow this; the access checks answer without a body, other refusals with the error envelope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Not found, or in a session the key may not reach */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Not possible in the current state */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description The body is larger than the limit */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description The body is not JSON */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Too many requests or starts; retry after `Retry-After` seconds */
            429: {
                headers: {
                    /** @description Seconds to wait before trying again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description An unexpected failure; the message gives a reference to the server log */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Not available here or now (a standby, a server closing); retry after `Retry-After` seconds */
            503: {
                headers: {
                    /** @description Seconds to wait before trying again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    resumeNode: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
                nodeId: string;
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": {
                    approved?: unknown;
                    messageId?: unknown;
                    payload?: unknown;
                    comment?: unknown;
                };
            };
        };
        responses: {
            /** @description The node's status after the command */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** Format: date-time */
                        timestamp: string;
                        status: number;
                        message: string;
                        data: components["schemas"]["NodeState"];
                    };
                };
            };
            /** @description The request is not valid: a parameter, a field or the body; `errors` names the fields */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description No key, or a key the server does not know (SPEC Authentication: no body); on a hook, no secret or signature that fits */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description The key's role or sessions do not allow this; the access checks answer without a body, other refusals with the error envelope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Not found, or in a session the key may not reach */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Not possible in the current state */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description The body is larger than the limit */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description The body is not JSON */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Too many requests or starts; retry after `Retry-After` seconds */
            429: {
                headers: {
                    /** @description Seconds to wait before trying again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description An unexpected failure; the message gives a reference to the server log */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Not available here or now (a standby, a server closing); retry after `Retry-After` seconds */
            503: {
                headers: {
                    /** @description Seconds to wait before trying again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    stepNode: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
                nodeId: string;
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": {
                    approved?: unknown;
                    messageId?: unknown;
                    payload?: unknown;
                    comment?: unknown;
                };
            };
        };
        responses: {
            /** @description The node's status after the command */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** Format: date-time */
                        timestamp: string;
                        status: number;
                        message: string;
                        data: components["schemas"]["NodeState"];
                    };
                };
            };
            /** @description The request is not valid: a parameter, a field or the body; `errors` names the fields */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description No key, or a key the server does not know (SPEC Authentication: no body); on a hook, no secret or signature that fits */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description The key's role or sessions do not allow this; the access checks answer without a body, other refusals with the error envelope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Not found, or in a session the key may not reach */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Not possible in the current state */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description The body is larger than the limit */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description The body is not JSON */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Too many requests or starts; retry after `Retry-After` seconds */
            429: {
                headers: {
                    /** @description Seconds to wait before trying again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description An unexpected failure; the message gives a reference to the server log */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Not available here or now (a standby, a server closing); retry after `Retry-After` seconds */
            503: {
                headers: {
                    /** @description Seconds to wait before trying again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    stopNode: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
                nodeId: string;
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": {
                    approved?: unknown;
                    messageId?: unknown;
                    payload?: unknown;
                    comment?: unknown;
                };
            };
        };
        responses: {
            /** @description The node's status after the command */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** Format: date-time */
                        timestamp: string;
                        status: number;
                        message: string;
                        data: components["schemas"]["NodeState"];
                    };
                };
            };
            /** @description The request is not valid: a parameter, a field or the body; `errors` names the fields */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description No key, or a key the server does not know (SPEC Authentication: no body); on a hook, no secret or signature that fits */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description The key's role or sessions do not allow this; the access checks answer without a body, other refusals with the error envelope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Not found, or in a session the key may not reach */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Not possible in the current state */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description The body is larger than the limit */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description The body is not JSON */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Too many requests or starts; retry after `Retry-After` seconds */
            429: {
                headers: {
                    /** @description Seconds to wait before trying again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description An unexpected failure; the message gives a reference to the server log */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Not available here or now (a standby, a server closing); retry after `Retry-After` seconds */
            503: {
                headers: {
                    /** @description Seconds to wait before trying again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    skipNode: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
                nodeId: string;
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": {
                    approved?: unknown;
                    messageId?: unknown;
                    payload?: unknown;
                    comment?: unknown;
                };
            };
        };
        responses: {
            /** @description The node's status after the command */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** Format: date-time */
                        timestamp: string;
                        status: number;
                        message: string;
                        data: components["schemas"]["NodeState"];
                    };
                };
            };
            /** @description The request is not valid: a parameter, a field or the body; `errors` names the fields */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description No key, or a key the server does not know (SPEC Authentication: no body); on a hook, no secret or signature that fits */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description The key's role or sessions do not allow this; the access checks answer without a body, other refusals with the error envelope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Not found, or in a session the key may not reach */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Not possible in the current state */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description The body is larger than the limit */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description The body is not JSON */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Too many requests or starts; retry after `Retry-After` seconds */
            429: {
                headers: {
                    /** @description Seconds to wait before trying again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description An unexpected failure; the message gives a reference to the server log */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Not available here or now (a standby, a server closing); retry after `Retry-After` seconds */
            503: {
                headers: {
                    /** @description Seconds to wait before trying again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    unskipNode: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
                nodeId: string;
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": {
                    approved?: unknown;
                    messageId?: unknown;
                    payload?: unknown;
                    comment?: unknown;
                };
            };
        };
        responses: {
            /** @description The node's status after the command */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** Format: date-time */
                        timestamp: string;
                        status: number;
                        message: string;
                        data: components["schemas"]["NodeState"];
                    };
                };
            };
            /** @description The request is not valid: a parameter, a field or the body; `errors` names the fields */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description No key, or a key the server does not know (SPEC Authentication: no body); on a hook, no secret or signature that fits */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description The key's role or sessions do not allow this; the access checks answer without a body, other refusals with the error envelope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Not found, or in a session the key may not reach */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Not possible in the current state */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description The body is larger than the limit */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description The body is not JSON */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Too many requests or starts; retry after `Retry-After` seconds */
            429: {
                headers: {
                    /** @description Seconds to wait before trying again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description An unexpected failure; the message gives a reference to the server log */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Not available here or now (a standby, a server closing); retry after `Retry-After` seconds */
            503: {
                headers: {
                    /** @description Seconds to wait before trying again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    signalNode: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
                nodeId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    approved: boolean;
                    messageId?: string;
                    payload?: unknown;
                    comment?: string;
                };
            };
        };
        responses: {
            /** @description The wait answered */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** Format: date-time */
                        timestamp: string;
                        status: number;
                        message: string;
                        data: components["schemas"]["SignalAnswer"];
                    };
                };
            };
            /** @description The request is not valid: a parameter, a field or the body; `errors` names the fields */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description No key, or a key the server does not know (SPEC Authentication: no body); on a hook, no secret or signature that fits */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description The key's role or sessions do not allow this; the access checks answer without a body, other refusals with the error envelope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Not found, or in a session the key may not reach */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Not possible in the current state */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description The body is larger than the limit */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description The body is not JSON */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Too many requests or starts; retry after `Retry-After` seconds */
            429: {
                headers: {
                    /** @description Seconds to wait before trying again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description An unexpected failure; the message gives a reference to the server log */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Not available here or now (a standby, a server closing); retry after `Retry-After` seconds */
            503: {
                headers: {
                    /** @description Seconds to wait before trying again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    listExecutionApprovals: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The approvals, oldest first */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** Format: date-time */
                        timestamp: string;
                        status: number;
                        message: string;
                        data: components["schemas"]["Approval"][];
                    };
                };
            };
            /** @description The request is not valid: a parameter, a field or the body; `errors` names the fields */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description No key, or a key the server does not know (SPEC Authentication: no body); on a hook, no secret or signature that fits */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description The key's role or sessions do not allow this; the access checks answer without a body, other refusals with the error envelope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Not found, or in a session the key may not reach */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Too many requests or starts; retry after `Retry-After` seconds */
            429: {
                headers: {
                    /** @description Seconds to wait before trying again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description An unexpected failure; the message gives a reference to the server log */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Not available here or now (a standby, a server closing); retry after `Retry-After` seconds */
            503: {
                headers: {
                    /** @description Seconds to wait before trying again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    listSessionApprovals: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                sessionId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The approvals */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** Format: date-time */
                        timestamp: string;
                        status: number;
                        message: string;
                        data: components["schemas"]["Approval"][];
                    };
                };
            };
            /** @description The request is not valid: a parameter, a field or the body; `errors` names the fields */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description No key, or a key the server does not know (SPEC Authentication: no body); on a hook, no secret or signature that fits */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description The key's role or sessions do not allow this; the access checks answer without a body, other refusals with the error envelope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Too many requests or starts; retry after `Retry-After` seconds */
            429: {
                headers: {
                    /** @description Seconds to wait before trying again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description An unexpected failure; the message gives a reference to the server log */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Not available here or now (a standby, a server closing); retry after `Retry-After` seconds */
            503: {
                headers: {
                    /** @description Seconds to wait before trying again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    getBreakpoints: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The nodes with a breakpoint */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** Format: date-time */
                        timestamp: string;
                        status: number;
                        message: string;
                        data: components["schemas"]["Breakpoints"];
                    };
                };
            };
            /** @description The request is not valid: a parameter, a field or the body; `errors` names the fields */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description No key, or a key the server does not know (SPEC Authentication: no body); on a hook, no secret or signature that fits */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description The key's role or sessions do not allow this; the access checks answer without a body, other refusals with the error envelope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Not found, or in a session the key may not reach */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Too many requests or starts; retry after `Retry-After` seconds */
            429: {
                headers: {
                    /** @description Seconds to wait before trying again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description An unexpected failure; the message gives a reference to the server log */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Not available here or now (a standby, a server closing); retry after `Retry-After` seconds */
            503: {
                headers: {
                    /** @description Seconds to wait before trying again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    setBreakpoints: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    nodeIds: string[];
                };
            };
        };
        responses: {
            /** @description The nodes with a breakpoint now */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** Format: date-time */
                        timestamp: string;
                        status: number;
                        message: string;
                        data: components["schemas"]["Breakpoints"];
                    };
                };
            };
            /** @description The request is not valid: a parameter, a field or the body; `errors` names the fields */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description No key, or a key the server does not know (SPEC Authentication: no body); on a hook, no secret or signature that fits */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description The key's role or sessions do not allow this; the access checks answer without a body, other refusals with the error envelope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Not found, or in a session the key may not reach */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Not possible in the current state */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description The body is larger than the limit */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description The body is not JSON */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Too many requests or starts; retry after `Retry-After` seconds */
            429: {
                headers: {
                    /** @description Seconds to wait before trying again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description An unexpected failure; the message gives a reference to the server log */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Not available here or now (a standby, a server closing); retry after `Retry-After` seconds */
            503: {
                headers: {
                    /** @description Seconds to wait before trying again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    restartExecution: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": components["schemas"]["RestartBodyInput"];
            };
        };
        responses: {
            /** @description The new execution, RUNNING or QUEUED */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** Format: date-time */
                        timestamp: string;
                        status: number;
                        message: string;
                        data: components["schemas"]["ExecutionState"];
                    };
                };
            };
            /** @description The request is not valid: a parameter, a field or the body; `errors` names the fields */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description No key, or a key the server does not know (SPEC Authentication: no body); on a hook, no secret or signature that fits */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description The key's role or sessions do not allow this; the access checks answer without a body, other refusals with the error envelope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Not found, or in a session the key may not reach */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Not possible in the current state */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description The body is larger than the limit */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description The body is not JSON */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Too many requests or starts; retry after `Retry-After` seconds */
            429: {
                headers: {
                    /** @description Seconds to wait before trying again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description An unexpected failure; the message gives a reference to the server log */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Not available here or now (a standby, a server closing); retry after `Retry-After` seconds */
            503: {
                headers: {
                    /** @description Seconds to wait before trying again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    restartExecutionFromNode: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
                nodeId: string;
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": components["schemas"]["RestartFromNodeBodyInput"];
            };
        };
        responses: {
            /** @description The new execution, RUNNING or QUEUED */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** Format: date-time */
                        timestamp: string;
                        status: number;
                        message: string;
                        data: components["schemas"]["ExecutionState"];
                    };
                };
            };
            /** @description The request is not valid: a parameter, a field or the body; `errors` names the fields */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description No key, or a key the server does not know (SPEC Authentication: no body); on a hook, no secret or signature that fits */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description The key's role or sessions do not allow this; the access checks answer without a body, other refusals with the error envelope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Not found, or in a session the key may not reach */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Not possible in the current state */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description The body is larger than the limit */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description The body is not JSON */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Too many requests or starts; retry after `Retry-After` seconds */
            429: {
                headers: {
                    /** @description Seconds to wait before trying again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description An unexpected failure; the message gives a reference to the server log */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Not available here or now (a standby, a server closing); retry after `Retry-After` seconds */
            503: {
                headers: {
                    /** @description Seconds to wait before trying again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    retryExecutionNode: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
                nodeId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The new execution, RUNNING or QUEUED */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** Format: date-time */
                        timestamp: string;
                        status: number;
                        message: string;
                        data: components["schemas"]["ExecutionState"];
                    };
                };
            };
            /** @description The request is not valid: a parameter, a field or the body; `errors` names the fields */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description No key, or a key the server does not know (SPEC Authentication: no body); on a hook, no secret or signature that fits */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description The key's role or sessions do not allow this; the access checks answer without a body, other refusals with the error envelope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Not found, or in a session the key may not reach */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Not possible in the current state */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description The body is larger than the limit */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description The body is not JSON */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Too many requests or starts; retry after `Retry-After` seconds */
            429: {
                headers: {
                    /** @description Seconds to wait before trying again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description An unexpected failure; the message gives a reference to the server log */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Not available here or now (a standby, a server closing); retry after `Retry-After` seconds */
            503: {
                headers: {
                    /** @description Seconds to wait before trying again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    recoverExecution: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The new execution, RUNNING or QUEUED */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** Format: date-time */
                        timestamp: string;
                        status: number;
                        message: string;
                        data: components["schemas"]["ExecutionState"];
                    };
                };
            };
            /** @description The request is not valid: a parameter, a field or the body; `errors` names the fields */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description No key, or a key the server does not know (SPEC Authentication: no body); on a hook, no secret or signature that fits */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description The key's role or sessions do not allow this; the access checks answer without a body, other refusals with the error envelope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Not found, or in a session the key may not reach */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Not possible in the current state */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description The body is larger than the limit */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description The body is not JSON */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Too many requests or starts; retry after `Retry-After` seconds */
            429: {
                headers: {
                    /** @description Seconds to wait before trying again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description An unexpected failure; the message gives a reference to the server log */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Not available here or now (a standby, a server closing); retry after `Retry-After` seconds */
            503: {
                headers: {
                    /** @description Seconds to wait before trying again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    replayCheckExecution: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["ReplayCheckBodyInput"];
            };
        };
        responses: {
            /** @description Per node, the recorded and the replayed output */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** Format: date-time */
                        timestamp: string;
                        status: number;
                        message: string;
                        data: components["schemas"]["ReplayCheck"];
                    };
                };
            };
            /** @description The request is not valid: a parameter, a field or the body; `errors` names the fields */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description No key, or a key the server does not know (SPEC Authentication: no body); on a hook, no secret or signature that fits */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description The key's role or sessions do not allow this; the access checks answer without a body, other refusals with the error envelope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Not found, or in a session the key may not reach */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Not possible in the current state */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description The body is larger than the limit */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description The body is not JSON */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Too many requests or starts; retry after `Retry-After` seconds */
            429: {
                headers: {
                    /** @description Seconds to wait before trying again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description An unexpected failure; the message gives a reference to the server log */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Not available here or now (a standby, a server closing); retry after `Retry-After` seconds */
            503: {
                headers: {
                    /** @description Seconds to wait before trying again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    getExecutionCheckpoints: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The checkpoints by node id */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** Format: date-time */
                        timestamp: string;
                        status: number;
                        message: string;
                        data: components["schemas"]["ExecutionCheckpoints"];
                    };
                };
            };
            /** @description The request is not valid: a parameter, a field or the body; `errors` names the fields */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description No key, or a key the server does not know (SPEC Authentication: no body); on a hook, no secret or signature that fits */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description The key's role or sessions do not allow this; the access checks answer without a body, other refusals with the error envelope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Not found, or in a session the key may not reach */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Too many requests or starts; retry after `Retry-After` seconds */
            429: {
                headers: {
                    /** @description Seconds to wait before trying again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description An unexpected failure; the message gives a reference to the server log */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Not available here or now (a standby, a server closing); retry after `Retry-After` seconds */
            503: {
                headers: {
                    /** @description Seconds to wait before trying again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    listNodeMessages: {
        parameters: {
            query?: {
                direction?: "in" | "out";
                limit?: number;
                cursor?: string;
            };
            header?: never;
            path: {
                id: string;
                nodeId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description One page of recorded messages */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** Format: date-time */
                        timestamp: string;
                        status: number;
                        message: string;
                        data: components["schemas"]["NodeMessagePage"];
                    };
                };
            };
            /** @description The request is not valid: a parameter, a field or the body; `errors` names the fields */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description No key, or a key the server does not know (SPEC Authentication: no body); on a hook, no secret or signature that fits */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description The key's role or sessions do not allow this; the access checks answer without a body, other refusals with the error envelope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Not found, or in a session the key may not reach */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Not possible in the current state */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Too many requests or starts; retry after `Retry-After` seconds */
            429: {
                headers: {
                    /** @description Seconds to wait before trying again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description An unexpected failure; the message gives a reference to the server log */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Not available here or now (a standby, a server closing); retry after `Retry-After` seconds */
            503: {
                headers: {
                    /** @description Seconds to wait before trying again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    activateWorkflow: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                sessionId: string;
                workflowId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The activation and the run kept going */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** Format: date-time */
                        timestamp: string;
                        status: number;
                        message: string;
                        data: components["schemas"]["Activation"];
                    };
                };
            };
            /** @description The request is not valid: a parameter, a field or the body; `errors` names the fields */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description No key, or a key the server does not know (SPEC Authentication: no body); on a hook, no secret or signature that fits */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description The key's role or sessions do not allow this; the access checks answer without a body, other refusals with the error envelope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Not found, or in a session the key may not reach */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description The body is larger than the limit */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description The body is not JSON */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Too many requests or starts; retry after `Retry-After` seconds */
            429: {
                headers: {
                    /** @description Seconds to wait before trying again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description An unexpected failure; the message gives a reference to the server log */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Not available here or now (a standby, a server closing); retry after `Retry-After` seconds */
            503: {
                headers: {
                    /** @description Seconds to wait before trying again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    deactivateWorkflow: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                sessionId: string;
                workflowId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The activation, now off */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** Format: date-time */
                        timestamp: string;
                        status: number;
                        message: string;
                        data: components["schemas"]["Activation"];
                    };
                };
            };
            /** @description The request is not valid: a parameter, a field or the body; `errors` names the fields */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description No key, or a key the server does not know (SPEC Authentication: no body); on a hook, no secret or signature that fits */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description The key's role or sessions do not allow this; the access checks answer without a body, other refusals with the error envelope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Not found, or in a session the key may not reach */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description The body is larger than the limit */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description The body is not JSON */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Too many requests or starts; retry after `Retry-After` seconds */
            429: {
                headers: {
                    /** @description Seconds to wait before trying again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description An unexpected failure; the message gives a reference to the server log */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Not available here or now (a standby, a server closing); retry after `Retry-After` seconds */
            503: {
                headers: {
                    /** @description Seconds to wait before trying again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    listDeadLetters: {
        parameters: {
            query?: {
                sessionId?: string;
                workflowId?: string;
                nodeId?: string;
                executionId?: string;
                limit?: number;
                cursor?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description One page of dead letters */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** Format: date-time */
                        timestamp: string;
                        status: number;
                        message: string;
                        data: components["schemas"]["DeadLetterPage"];
                    };
                };
            };
            /** @description The request is not valid: a parameter, a field or the body; `errors` names the fields */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description No key, or a key the server does not know (SPEC Authentication: no body); on a hook, no secret or signature that fits */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description The key's role or sessions do not allow this; the access checks answer without a body, other refusals with the error envelope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Too many requests or starts; retry after `Retry-After` seconds */
            429: {
                headers: {
                    /** @description Seconds to wait before trying again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description An unexpected failure; the message gives a reference to the server log */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Not available here or now (a standby, a server closing); retry after `Retry-After` seconds */
            503: {
                headers: {
                    /** @description Seconds to wait before trying again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    getDeadLetter: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The dead letter */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** Format: date-time */
                        timestamp: string;
                        status: number;
                        message: string;
                        data: components["schemas"]["DeadLetter"];
                    };
                };
            };
            /** @description The request is not valid: a parameter, a field or the body; `errors` names the fields */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description No key, or a key the server does not know (SPEC Authentication: no body); on a hook, no secret or signature that fits */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description The key's role or sessions do not allow this; the access checks answer without a body, other refusals with the error envelope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Not found, or in a session the key may not reach */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Too many requests or starts; retry after `Retry-After` seconds */
            429: {
                headers: {
                    /** @description Seconds to wait before trying again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description An unexpected failure; the message gives a reference to the server log */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Not available here or now (a standby, a server closing); retry after `Retry-After` seconds */
            503: {
                headers: {
                    /** @description Seconds to wait before trying again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    deleteDeadLetter: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The dead letter deleted */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** Format: date-time */
                        timestamp: string;
                        status: number;
                        message: string;
                        data: {
                            id: string;
                        };
                    };
                };
            };
            /** @description The request is not valid: a parameter, a field or the body; `errors` names the fields */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description No key, or a key the server does not know (SPEC Authentication: no body); on a hook, no secret or signature that fits */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description The key's role or sessions do not allow this; the access checks answer without a body, other refusals with the error envelope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Not found, or in a session the key may not reach */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Too many requests or starts; retry after `Retry-After` seconds */
            429: {
                headers: {
                    /** @description Seconds to wait before trying again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description An unexpected failure; the message gives a reference to the server log */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Not available here or now (a standby, a server closing); retry after `Retry-After` seconds */
            503: {
                headers: {
                    /** @description Seconds to wait before trying again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    redriveDeadLetter: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": components["schemas"]["RedriveBodyInput"];
            };
        };
        responses: {
            /** @description The new execution and the letter marked */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** Format: date-time */
                        timestamp: string;
                        status: number;
                        message: string;
                        data: components["schemas"]["RedriveAnswer"];
                    };
                };
            };
            /** @description The request is not valid: a parameter, a field or the body; `errors` names the fields */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description No key, or a key the server does not know (SPEC Authentication: no body); on a hook, no secret or signature that fits */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description The key's role or sessions do not allow this; the access checks answer without a body, other refusals with the error envelope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Not found, or in a session the key may not reach */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Not possible in the current state */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description The body is larger than the limit */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description The body is not JSON */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Too many requests or starts; retry after `Retry-After` seconds */
            429: {
                headers: {
                    /** @description Seconds to wait before trying again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description An unexpected failure; the message gives a reference to the server log */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Not available here or now (a standby, a server closing); retry after `Retry-After` seconds */
            503: {
                headers: {
                    /** @description Seconds to wait before trying again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    callHook: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                sessionId: string;
                workflowId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description `respond: sync`: the payload of the first terminal message, or null when the run completed without one */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** Format: date-time */
                        timestamp: string;
                        status: number;
                        message: string;
                        /** @description Any JSON */
                        data: unknown;
                    };
                };
            };
            /** @description `respond: async`: the execution accepted, RUNNING or QUEUED */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** Format: date-time */
                        timestamp: string;
                        status: number;
                        message: string;
                        data: components["schemas"]["ExecutionState"];
                    };
                };
            };
            /** @description The request is not valid: a parameter, a field or the body; `errors` names the fields */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description No key, or a key the server does not know (SPEC Authentication: no body); on a hook, no secret or signature that fits */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Not found, or in a session the key may not reach */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description The body is larger than the limit */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description The body is not JSON */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Too many requests or starts; retry after `Retry-After` seconds */
            429: {
                headers: {
                    /** @description Seconds to wait before trying again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description An unexpected failure; the message gives a reference to the server log */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description A synchronous hook call: the run failed before its first terminal message */
            502: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Not available here or now (a standby, a server closing); retry after `Retry-After` seconds */
            503: {
                headers: {
                    /** @description Seconds to wait before trying again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description A synchronous hook call: no terminal message within the wait; the run goes on */
            504: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    streamToolNotifications: {
        parameters: {
            query?: never;
            header: {
                /** @description The MCP session */
                "mcp-session-id": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description JSON-RPC notifications of the session as server-sent events, open until the client leaves */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": string;
                };
            };
            /** @description No key, or a key the server does not know (SPEC Authentication: no body); on a hook, no secret or signature that fits */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Not found, or in a session the key may not reach */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        jsonrpc?: string;
                        /** @enum {object|null} */
                        id?: never | null;
                        error?: Record<string, never>;
                    };
                };
            };
            /** @description A JSON-RPC error */
            405: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        jsonrpc?: string;
                        /** @enum {object|null} */
                        id?: never | null;
                        error?: Record<string, never>;
                    };
                };
            };
        };
    };
    callTool: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** @description A JSON-RPC 2.0 request or notification */
        requestBody: {
            content: {
                "application/json": {
                    /** @enum {string} */
                    jsonrpc: "2.0";
                    id?: string | number;
                    method: string;
                    params?: Record<string, never>;
                };
            };
        };
        responses: {
            /** @description The JSON-RPC response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        jsonrpc?: string;
                        id?: string | number;
                        result?: Record<string, never>;
                        error?: Record<string, never>;
                    };
                };
            };
            /** @description A notification was accepted */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description No key, or a key the server does not know (SPEC Authentication: no body); on a hook, no secret or signature that fits */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Not found, or in a session the key may not reach */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        jsonrpc?: string;
                        /** @enum {object|null} */
                        id?: never | null;
                        error?: Record<string, never>;
                    };
                };
            };
        };
    };
    endToolSession: {
        parameters: {
            query?: never;
            header: {
                /** @description The MCP session */
                "mcp-session-id": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The session is ended */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description No key, or a key the server does not know (SPEC Authentication: no body); on a hook, no secret or signature that fits */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Not found, or in a session the key may not reach */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        jsonrpc?: string;
                        /** @enum {object|null} */
                        id?: never | null;
                        error?: Record<string, never>;
                    };
                };
            };
            /** @description A JSON-RPC error */
            405: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        jsonrpc?: string;
                        /** @enum {object|null} */
                        id?: never | null;
                        error?: Record<string, never>;
                    };
                };
            };
        };
    };
    streamEvents: {
        parameters: {
            query?: {
                sessionId?: string;
                executionId?: string;
                kinds?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A stream of server-sent events, open until the client leaves */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/event-stream": components["schemas"]["Event"];
                };
            };
            /** @description The request is not valid: a parameter, a field or the body; `errors` names the fields */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description No key, or a key the server does not know (SPEC Authentication: no body); on a hook, no secret or signature that fits */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description The key's role or sessions do not allow this; the access checks answer without a body, other refusals with the error envelope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Too many requests or starts; retry after `Retry-After` seconds */
            429: {
                headers: {
                    /** @description Seconds to wait before trying again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description An unexpected failure; the message gives a reference to the server log */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Not available here or now (a standby, a server closing); retry after `Retry-After` seconds */
            503: {
                headers: {
                    /** @description Seconds to wait before trying again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    streamExecutionLogs: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                sessionId: string;
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A stream of log entries as server-sent events */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/event-stream": components["schemas"]["LogLine"];
                };
            };
            /** @description The request is not valid: a parameter, a field or the body; `errors` names the fields */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description No key, or a key the server does not know (SPEC Authentication: no body); on a hook, no secret or signature that fits */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description The key's role or sessions do not allow this; the access checks answer without a body, other refusals with the error envelope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Not found, or in a session the key may not reach */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Too many requests or starts; retry after `Retry-After` seconds */
            429: {
                headers: {
                    /** @description Seconds to wait before trying again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description An unexpected failure; the message gives a reference to the server log */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Not available here or now (a standby, a server closing); retry after `Retry-After` seconds */
            503: {
                headers: {
                    /** @description Seconds to wait before trying again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    streamExecutionProgress: {
        parameters: {
            query?: {
                /** @description Also send the run’s live flow about once a second (`flow` events) */
                flow?: "true" | "false";
            };
            header?: never;
            path: {
                sessionId: string;
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A stream of progress events (and, with `flow=true`, flow events) as server-sent events */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/event-stream": components["schemas"]["ProgressEvent"] | components["schemas"]["FlowEvent"];
                };
            };
            /** @description The request is not valid: a parameter, a field or the body; `errors` names the fields */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description No key, or a key the server does not know (SPEC Authentication: no body); on a hook, no secret or signature that fits */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description The key's role or sessions do not allow this; the access checks answer without a body, other refusals with the error envelope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Not found, or in a session the key may not reach */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Too many requests or starts; retry after `Retry-After` seconds */
            429: {
                headers: {
                    /** @description Seconds to wait before trying again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description An unexpected failure; the message gives a reference to the server log */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Not available here or now (a standby, a server closing); retry after `Retry-After` seconds */
            503: {
                headers: {
                    /** @description Seconds to wait before trying again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    getHealth: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The health of the server */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Health"];
                };
            };
            /** @description The key's role or sessions do not allow this; the access checks answer without a body, other refusals with the error envelope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description An unexpected failure; the message gives a reference to the server log */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Not available here or now (a standby, a server closing); retry after `Retry-After` seconds */
            503: {
                headers: {
                    /** @description Seconds to wait before trying again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    listManagementEndpoints: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Links to the endpoints exposed, by id */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        _links: {
                            [key: string]: {
                                href: string;
                            };
                        };
                    };
                };
            };
            /** @description No key, or a key the server does not know (SPEC Authentication: no body); on a hook, no secret or signature that fits */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description The key's role or sessions do not allow this; the access checks answer without a body, other refusals with the error envelope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description An unexpected failure; the message gives a reference to the server log */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Not available here or now (a standby, a server closing); retry after `Retry-After` seconds */
            503: {
                headers: {
                    /** @description Seconds to wait before trying again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    getApplicationInfo: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The build, profile and runtime */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApplicationInfo"];
                };
            };
            /** @description No key, or a key the server does not know (SPEC Authentication: no body); on a hook, no secret or signature that fits */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description The key's role or sessions do not allow this; the access checks answer without a body, other refusals with the error envelope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description An unexpected failure; the message gives a reference to the server log */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Not available here or now (a standby, a server closing); retry after `Retry-After` seconds */
            503: {
                headers: {
                    /** @description Seconds to wait before trying again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    scrapeMeters: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The meters, as Prometheus text */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/plain; version=0.0.4; charset=utf-8": string;
                };
            };
            /** @description No key, or a key the server does not know (SPEC Authentication: no body); on a hook, no secret or signature that fits */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description The key's role or sessions do not allow this; the access checks answer without a body, other refusals with the error envelope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description An unexpected failure; the message gives a reference to the server log */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Not available here or now (a standby, a server closing); retry after `Retry-After` seconds */
            503: {
                headers: {
                    /** @description Seconds to wait before trying again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    listMeters: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The names of the meters, sorted */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        names: string[];
                    };
                };
            };
            /** @description No key, or a key the server does not know (SPEC Authentication: no body); on a hook, no secret or signature that fits */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description The key's role or sessions do not allow this; the access checks answer without a body, other refusals with the error envelope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description An unexpected failure; the message gives a reference to the server log */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Not available here or now (a standby, a server closing); retry after `Retry-After` seconds */
            503: {
                headers: {
                    /** @description Seconds to wait before trying again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    getMeter: {
        parameters: {
            query?: {
                tag?: string | string[];
            };
            header?: never;
            path: {
                name: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The meter */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Meter"];
                };
            };
            /** @description The request is not valid: a parameter, a field or the body; `errors` names the fields */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description No key, or a key the server does not know (SPEC Authentication: no body); on a hook, no secret or signature that fits */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description The key's role or sessions do not allow this; the access checks answer without a body, other refusals with the error envelope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Not found, or in a session the key may not reach */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description An unexpected failure; the message gives a reference to the server log */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Not available here or now (a standby, a server closing); retry after `Retry-After` seconds */
            503: {
                headers: {
                    /** @description Seconds to wait before trying again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    listLoggers: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The levels there are, and each logger */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Loggers"];
                };
            };
            /** @description No key, or a key the server does not know (SPEC Authentication: no body); on a hook, no secret or signature that fits */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description The key's role or sessions do not allow this; the access checks answer without a body, other refusals with the error envelope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description An unexpected failure; the message gives a reference to the server log */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Not available here or now (a standby, a server closing); retry after `Retry-After` seconds */
            503: {
                headers: {
                    /** @description Seconds to wait before trying again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    getLogger: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                name: "ROOT" | "app" | "engine";
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The logger's levels */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["LoggerLevels"];
                };
            };
            /** @description The request is not valid: a parameter, a field or the body; `errors` names the fields */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description No key, or a key the server does not know (SPEC Authentication: no body); on a hook, no secret or signature that fits */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description The key's role or sessions do not allow this; the access checks answer without a body, other refusals with the error envelope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description An unexpected failure; the message gives a reference to the server log */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Not available here or now (a standby, a server closing); retry after `Retry-After` seconds */
            503: {
                headers: {
                    /** @description Seconds to wait before trying again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    setLoggerLevel: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                name: "ROOT" | "app" | "engine";
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @enum {string|null} */
                    configuredLevel: "TRACE" | "DEBUG" | "INFO" | "WARN" | "ERROR" | "OFF" | null;
                };
            };
        };
        responses: {
            /** @description The level is set */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description The request is not valid: a parameter, a field or the body; `errors` names the fields */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description No key, or a key the server does not know (SPEC Authentication: no body); on a hook, no secret or signature that fits */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description The key's role or sessions do not allow this; the access checks answer without a body, other refusals with the error envelope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description The body is larger than the limit */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description The body is not JSON */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description An unexpected failure; the message gives a reference to the server log */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Not available here or now (a standby, a server closing); retry after `Retry-After` seconds */
            503: {
                headers: {
                    /** @description Seconds to wait before trying again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    listRoutes: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Every route of the server */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        routes: {
                            method: string;
                            url: string;
                        }[];
                    };
                };
            };
            /** @description No key, or a key the server does not know (SPEC Authentication: no body); on a hook, no secret or signature that fits */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description The key's role or sessions do not allow this; the access checks answer without a body, other refusals with the error envelope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description An unexpected failure; the message gives a reference to the server log */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Not available here or now (a standby, a server closing); retry after `Retry-After` seconds */
            503: {
                headers: {
                    /** @description Seconds to wait before trying again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    getThreadDump: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The event loop and process state */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ThreadDump"];
                };
            };
            /** @description No key, or a key the server does not know (SPEC Authentication: no body); on a hook, no secret or signature that fits */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description The key's role or sessions do not allow this; the access checks answer without a body, other refusals with the error envelope */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description An unexpected failure; the message gives a reference to the server log */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description Not available here or now (a standby, a server closing); retry after `Retry-After` seconds */
            503: {
                headers: {
                    /** @description Seconds to wait before trying again */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
}
