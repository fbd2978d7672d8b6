import Screens
import Testing

/// The page arithmetic both pagers share, over lines ten bytes apart.
@Suite("Paging")
struct PagingTests {
    final class Rows: PagedLines {
        let count: Int
        init(_ count: Int) { self.count = count }
        func position(of offset: Int) -> LinePosition? {
            count == 0 ? nil : LinePosition(blockStart: 0, index: min(max(0, offset / 10), count - 1))
        }
        func start(of position: LinePosition) -> Int { position.index * 10 }
        func next(_ position: LinePosition) -> LinePosition? {
            position.index + 1 < count ? LinePosition(blockStart: 0, index: position.index + 1) : nil
        }
        func previous(_ position: LinePosition) -> LinePosition? {
            position.index > 0 ? LinePosition(blockStart: 0, index: position.index - 1) : nil
        }
        var last: LinePosition? { count == 0 ? nil : LinePosition(blockStart: 0, index: count - 1) }
    }

    let rows = Rows(25)  // lines 0…24, pages of 10

    @Test func scrollingKeepsALineAndStopsAtTheLastFullPage() {
        let paging = Paging.scrolling
        #expect(paging.target(of: .pages(1), from: 0, height: 10, in: rows) == 90)
        #expect(paging.target(of: .pages(1), from: 90, height: 10, in: rows) == 150)
        #expect(paging.target(of: .pages(1), from: 150, height: 10, in: rows) == nil)
        #expect(paging.target(of: .pages(-1), from: 150, height: 10, in: rows) == 60)
    }

    @Test func turningPagesSharesNoLineAndLetsTheLastPageBeShort() {
        let paging = Paging.turningPages
        #expect(paging.target(of: .pages(1), from: 0, height: 10, in: rows) == 100)
        #expect(paging.target(of: .pages(1), from: 100, height: 10, in: rows) == 200)
        #expect(paging.target(of: .pages(1), from: 200, height: 10, in: rows) == nil)
        #expect(paging.target(of: .pages(-1), from: 200, height: 10, in: rows) == 100)
        #expect(paging.target(of: .pages(-1), from: 5, height: 10, in: rows) == nil, "already on the first page")
    }

    @Test func linesStopAtTheLastPageAndNeverGoTheWrongWay() {
        for paging in [Paging.scrolling, .turningPages] {
            #expect(paging.target(of: .lines(3), from: 0, height: 10, in: rows) == 30)
            #expect(paging.target(of: .lines(20), from: 0, height: 10, in: rows) == 150)
            #expect(paging.target(of: .lines(1), from: 150, height: 10, in: rows) == nil)
            #expect(paging.target(of: .lines(1), from: 200, height: 10, in: rows) == nil, "beyond the last page, ↓ stays")
            #expect(paging.target(of: .lines(-1), from: 200, height: 10, in: rows) == 190)
            #expect(paging.target(of: .lines(-1), from: 3, height: 10, in: rows) == nil)
        }
    }

    @Test func theEndsAndAnEmptyText() {
        #expect(Paging.turningPages.target(of: .last, from: 0, height: 10, in: rows) == 150)
        #expect(Paging.turningPages.target(of: .first, from: 200, height: 10, in: rows) == 0)
        #expect(Paging.scrolling.target(of: .first, from: 0, height: 10, in: Rows(0)) == nil)
        #expect(Paging.scrolling.page(at: 120, height: 10, in: rows).map(\.index) == Array(12...21))
    }
}
