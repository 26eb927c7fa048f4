@testable import CourierGenerator
import Foundation
import Testing

/// `paginate:`: every way to get it wrong gets one exact `path:line:column: error: message` line.
@Suite struct BadPaginationSpecTests {
    @Test func everyMistakeIsLocated() {
        let yaml = """
            service: Pages
            baseURL: https://pages.example.com
            models:
              Item: { id: String, tags: "[String]" }
              List: { data: "[Item]", next: String? }
            endpoints:
              notGet:
                post: /a
                response: "[Item]"
                paginate: link
              noBody:
                get: /b
                paginate: link
              notArray:
                get: /c
                response: List
                paginate: link
              unknownMember:
                get: /d
                response: List
                paginate: { link: true, items: entries }
              undeclaredCursor:
                get: /e
                response: List
                paginate: { cursor: { param: after, from: next }, items: data }
              cursorNotString:
                get: /f
                query: { after: Int? }
                response: List
                paginate: { cursor: { param: after, from: next }, items: data }
              missingLastItemMember:
                get: /g
                query: { after: String? }
                response: List
                paginate: { cursor: { param: after, from: lastItem.uuid }, items: data }
              lastItemNotScalar:
                get: /h
                query: { after: String? }
                response: List
                paginate: { cursor: { param: after, from: lastItem.tags }, items: data }
              pageNotInt:
                get: /i
                query: { page: String? }
                response: "[Item]"
                paginate: { page: { param: page } }
              badScalar:
                get: /j
                response: "[Item]"
                paginate: cursor
              twoStyles:
                get: /k
                response: "[Item]"
                paginate: { link: true, page: { param: page } }
              badHeader:
                get: /l
                query: { page: Int? }
                response: "[Item]"
                paginate: { page: { param: page, total: { header: "X Total" } } }
              list:
                get: /m
                response: "[Item]"
                paginate: link
              listPages:
                get: /n
            """
        #expect(diagnosticLines(yaml) == [
            "Specs/x.yaml:10:5: error: 'paginate' of endpoint 'notGet': only GET endpoints page; this one uses POST",
            "Specs/x.yaml:13:5: error: 'paginate' of endpoint 'noBody': the endpoint's response has no body to read items from",
            "Specs/x.yaml:17:5: error: 'paginate' of endpoint 'notArray': the response is 'List', not an array; say where the items are with 'items', such as 'items: data'",
            "Specs/x.yaml:21:5: error: 'paginate' of endpoint 'unknownMember': 'List' has no member 'entries' (members are named as in JSON)",
            "Specs/x.yaml:25:5: error: 'paginate' of endpoint 'undeclaredCursor': the query parameter 'after' it sets is not declared under 'query'",
            "Specs/x.yaml:28:14: error: 'paginate' of endpoint 'cursorNotString': query parameter 'after' is 'Int?'; a cursor parameter is 'String' or 'String?'",
            "Specs/x.yaml:35:5: error: 'paginate' of endpoint 'missingLastItemMember': the items ('Item') have no member 'uuid' to take the cursor from",
            "Specs/x.yaml:40:5: error: 'paginate' of endpoint 'lastItemNotScalar': member 'tags' of 'Item' is '[String]'; a cursor is a String, Int or Int64",
            "Specs/x.yaml:43:14: error: 'paginate' of endpoint 'pageNotInt': query parameter 'page' is 'String?'; a page or offset parameter is 'Int' or 'Int?'",
            "Specs/x.yaml:49:15: error: 'paginate' of endpoint 'badScalar' must be 'link' or a mapping with one of 'link', 'cursor', 'page', 'offset'",
            "Specs/x.yaml:53:29: error: 'paginate' of endpoint 'twoStyles' needs exactly one of 'link', 'cursor', 'page', 'offset'",
            "Specs/x.yaml:58:55: error: 'X Total' is not a valid HTTP header name",
            "Specs/x.yaml:62:5: error: endpoint 'list' pages, so the client gets a method 'listPages', which is also the method of endpoint 'listPages'; rename one of them",
        ])
    }
}
