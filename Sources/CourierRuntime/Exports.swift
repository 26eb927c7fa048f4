// Generated clients and their callers spell requests and headers with HTTPTypes
// (`HTTPRequest.Method`, `HTTPField.Name`, `HTTPFields`): they are part of this module's public
// API. Re-exporting the module means a target that depends only on `CourierRuntime` can build
// generated code and call it without declaring swift-http-types itself.
@_exported import HTTPTypes
