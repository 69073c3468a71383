import Foundation

/// A first-in first-out queue between one producer thread and one consumer,
/// bounded by a cost (bytes of text) so memory stays flat whatever the
/// corpus: `put` waits while the queue is full, `take` while it is empty.
/// An element's cost counts until the consumer says it is `finished` with
/// it, so a large document being written holds the producer back too.
// @unchecked Sendable: every stored property is read and written only while
// `condition` is locked.
final class WorkQueue<Element: Sendable>: @unchecked Sendable {
    private let condition = NSCondition()
    /// Elements put, from `head` on; those before `head` were taken, and
    /// are nil so that the queue does not keep them alive.
    private var items: [(element: Element?, cost: Int)] = []
    private var head = 0
    private var cost = 0
    private var waiting = 0
    private var closed = false
    let capacity: Int

    init(capacity: Int) { self.capacity = capacity }

    /// Adds an element, waiting while the queue holds more than its capacity.
    func put(_ element: Element, cost elementCost: Int) {
        condition.lock()
        defer { condition.unlock() }
        while cost > 0, cost + elementCost > capacity, !closed { condition.wait() }
        items.append((element, elementCost))
        cost += elementCost
        waiting += elementCost
        condition.broadcast()
    }

    /// Waits until an element of `elementCost` would fit without waiting,
    /// so that a producer does not read a large input while the queue is
    /// still full of the previous ones.
    func waitForRoom(_ elementCost: Int) {
        condition.lock()
        defer { condition.unlock() }
        while cost > 0, cost + elementCost > capacity, !closed { condition.wait() }
    }

    /// The cost of the elements put and not taken yet: the consumer's work
    /// in hand.
    var waitingCost: Int {
        condition.lock()
        defer { condition.unlock() }
        return waiting
    }

    /// No more elements will come.
    func close() {
        condition.lock()
        closed = true
        condition.broadcast()
        condition.unlock()
    }

    /// The next element and its cost, or nil once the queue is closed and
    /// empty. Call `finished` with the cost when done with the element.
    func take() -> (element: Element, cost: Int)? {
        condition.lock()
        defer { condition.unlock() }
        while head == items.count, !closed { condition.wait() }
        guard head < items.count, let element = items[head].element else { return nil }
        let cost = items[head].cost
        items[head].element = nil
        head += 1
        waiting -= cost
        if head > 1024, head * 2 > items.count {
            items.removeFirst(head)
            head = 0
        }
        return (element, cost)
    }

    /// The consumer is done with an element of this cost.
    func finished(_ elementCost: Int) {
        condition.lock()
        cost -= elementCost
        condition.broadcast()
        condition.unlock()
    }
}

/// A flag one thread sets and others read.
// @unchecked Sendable: `value` is only accessed while `lock` is held.
final class Flag: @unchecked Sendable {
    private let lock = NSLock()
    private var value = false
    func set() { lock.lock(); value = true; lock.unlock() }
    var isSet: Bool { lock.lock(); defer { lock.unlock() }; return value }
}
